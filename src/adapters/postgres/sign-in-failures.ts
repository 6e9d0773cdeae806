// Failed admin sign-ins in PostgreSQL (docs/admin.md "Several replicas"): every replica records its failures in one
// table and counts all of them, so the sixth failed attempt within 15 minutes is refused whichever replica answers.
// The rule itself is the one of the memory throttle (waitMsOf).
//
// A reservation counts and inserts in one transaction that first takes a transaction-level advisory lock per key
// (in sorted order, so two reservations never wait for each other in a circle): a second reservation of the same key,
// on any replica, waits for the first to commit, and its count, read after the lock, sees the first's row. Rows are
// never updated: a ticket is released by deleting one row of its key at its time (such rows are all alike).
import { createHmac, randomBytes } from 'node:crypto';
import { DEVICE_KEY_BYTES, SIGN_IN_WINDOW_MS, waitMsOf, type SignInThrottle } from '../../admin/sign-in-throttle.js';
import type { PostgresState } from './state.js';

/** The first half of the advisory locks' two-part keys: sign-in failures (the second half is hashtext(key)). */
const LOCK_CLASS = 0x5349_474e; // "SIGN"

export function createPostgresSignInThrottle(state: PostgresState): SignInThrottle {
  let deviceKey: Promise<Buffer> | undefined;
  return {
    async reserve(keys, now) {
      const unique = [...new Set(keys)].sort();
      return state.transaction(async (query) => {
        for (const key of unique) await query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, key]);
        const { rows } = await query<{ key: string; at: string }>('SELECT key, at FROM sign_in_failures WHERE key = ANY($1) AND at > $2', [
          unique,
          now - SIGN_IN_WINDOW_MS,
        ]);
        const waitMs = waitMsOf(
          unique.map((key) => rows.filter((row) => row.key === key).map((row) => Number(row.at))),
          now,
        );
        if (waitMs > 0) return { allowed: false as const, waitMs };
        // Failures older than the window count for nothing: they go as new ones come.
        await query('DELETE FROM sign_in_failures WHERE at <= $1', [now - SIGN_IN_WINDOW_MS]);
        await query('INSERT INTO sign_in_failures (key, at) SELECT unnest($1::text[]), $2', [unique, now]);
        return { allowed: true as const, ticket: { keys: unique, at: now } };
      });
    },
    async release(ticket) {
      await state.query(
        'DELETE FROM sign_in_failures WHERE ctid = ANY(ARRAY(SELECT DISTINCT ON (key) ctid FROM sign_in_failures WHERE key = ANY($1) AND at = $2))',
        [[...ticket.keys], ticket.at],
      );
    },
    async forget(key) {
      await state.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
    },
    deviceKey() {
      deviceKey ??= loadDeviceKey(state).catch((error: unknown) => {
        deviceKey = undefined;
        throw error;
      });
      return deviceKey;
    },
  };
}

/**
 * The signing key of sign-in's tokens, shared by every replica and kept across restarts: derived (HMAC-SHA-256 under a label of
 * its own, so it tells nothing of the other) from the random secret the database already keeps in
 * `newsletter_secret`, made here when there is none yet, as the newsletter makes it.
 */
async function loadDeviceKey(state: PostgresState): Promise<Buffer> {
  await state.query('INSERT INTO newsletter_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [randomBytes(DEVICE_KEY_BYTES)]);
  const { rows } = await state.query<{ secret: Buffer }>('SELECT secret FROM newsletter_secret WHERE id = 1');
  const secret = rows[0]?.secret;
  if (!secret) throw new Error('newsletter_secret has no row');
  return createHmac('sha256', secret).update('postbox admin device cookie').digest();
}
