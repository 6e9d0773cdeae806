// Failed admin sign-ins in PostgreSQL (docs/admin.md "Several replicas"): every replica records its failures in one
// table and counts all of them, so the sixth failed attempt within 15 minutes is refused whichever replica answers.
// The rule itself is the one of the memory throttle (waitMsOf).
import { SIGN_IN_WINDOW_MS, waitMsOf, type SignInThrottle } from '../../admin/sign-in-throttle.js';
import type { PostgresState } from './state.js';

export function createPostgresSignInThrottle(state: PostgresState): SignInThrottle {
  return {
    async waitMs(keys, now) {
      const { rows } = await state.query<{ key: string; at: string }>('SELECT key, at FROM sign_in_failures WHERE key = ANY($1) AND at > $2', [
        [...keys],
        now - SIGN_IN_WINDOW_MS,
      ]);
      return waitMsOf(
        keys.map((key) => rows.filter((row) => row.key === key).map((row) => Number(row.at))),
        now,
      );
    },
    async recordFailure(keys, now) {
      // Failures older than the window count for nothing: they go as new ones come.
      await state.query('DELETE FROM sign_in_failures WHERE at <= $1', [now - SIGN_IN_WINDOW_MS]);
      await state.query('INSERT INTO sign_in_failures (key, at) SELECT unnest($1::text[]), $2', [[...keys], now]);
    },
    async forget(key) {
      await state.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
    },
  };
}
