// Admin sessions in PostgreSQL (docs/admin.md "Sessions" and "Several replicas"): the same records as
// data_dir/admin-sessions.json, one row each, so that a session started on one replica is valid on every other at
// once and a sign-out on one ends it everywhere. Liveness is decided as with the file (isSessionLive); a request
// moves last_seen_at only when it moved a minute, before it is answered (so the next request, on any replica, sees
// it), and expired rows are deleted at each sign-in.
import {
  createSessionId,
  csrfTokenOf,
  isSessionId,
  isSessionLive,
  sessionKeyOf,
  type SessionRecord,
  type SessionStore,
  type SessionStoreOptions,
} from '../../admin/sessions.js';
import type { PostgresState } from './state.js';

/** A request moves a session's last-seen time in the table only when it moved this much, not on every page. */
const TOUCH_SAVE_MS = 60_000;

interface SessionRow {
  user_name: string;
  generation: string;
  created_at: string;
  last_seen_at: string;
  auth_at: string;
}

/** Sessions in the admin_sessions table; queries reject with UnavailableError while the database is out of reach. */
export function createPostgresSessionStore(state: PostgresState, options: Omit<SessionStoreOptions, 'file'>): SessionStore {
  const { clock, idleMs, maxMs } = options;
  /** A failed move of the last-seen time is logged, not the request's failure: the session was found live. */
  const touch = (key: string, at: number) =>
    state.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND last_seen_at < $2', [key, at]).then(() => undefined, options.onSaveError);

  return {
    async start(user, generation) {
      const id = createSessionId(options.randomBytes);
      const now = clock();
      await state.query('DELETE FROM admin_sessions WHERE last_seen_at <= $1 OR created_at <= $2', [now - idleMs, now - maxMs]);
      await state.query('INSERT INTO admin_sessions (id_hash, user_name, generation, created_at, last_seen_at, auth_at) VALUES ($1, $2, $3, $4, $4, $4)', [
        sessionKeyOf(id),
        user,
        generation,
        now,
      ]);
      return { id, session: { user, generation, createdAt: now, authAt: now, csrfToken: csrfTokenOf(id) } };
    },
    async find(id) {
      if (!isSessionId(id)) return undefined;
      const key = sessionKeyOf(id);
      const { rows } = await state.query<SessionRow>('SELECT user_name, generation, created_at, last_seen_at, auth_at FROM admin_sessions WHERE id_hash = $1', [key]);
      const row = rows[0];
      if (!row) return undefined;
      const record: SessionRecord = {
        user: row.user_name,
        generation: Number(row.generation),
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
        authAt: Number(row.auth_at),
      };
      const now = clock();
      if (!isSessionLive(record, now, idleMs, maxMs)) return undefined;
      if (now - record.lastSeenAt >= TOUCH_SAVE_MS) await touch(key, now);
      return { user: record.user, generation: record.generation, createdAt: record.createdAt, authAt: record.authAt, csrfToken: csrfTokenOf(id) };
    },
    async confirm(id) {
      if (!isSessionId(id)) return;
      await state.query('UPDATE admin_sessions SET auth_at = $2 WHERE id_hash = $1', [sessionKeyOf(id), clock()]);
    },
    async end(id) {
      if (!isSessionId(id)) return;
      await state.query('DELETE FROM admin_sessions WHERE id_hash = $1', [sessionKeyOf(id)]);
    },
    // Nothing runs in the background: every statement finished with its request.
    async close() {},
  };
}
