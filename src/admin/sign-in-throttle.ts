// Throttled sign-in (docs/admin.md "Signing in"): more than 5 failed attempts in 15 minutes from one address or for
// one name, and the next attempt is refused until the oldest of them is 15 minutes old. With files, counted in memory:
// a restart forgets them, which an attacker cannot cause from outside. With PostgreSQL, counted in a table every
// replica reads (src/adapters/postgres/sign-in-failures.ts), over the same rule (`waitMsOf`).

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILED_SIGN_INS = 5;

/** Beyond this many keys, the ones whose failures all expired are dropped. */
const PRUNE_ABOVE = 1_000;

export interface SignInThrottle {
  /** Milliseconds until an attempt under any of `keys` is allowed again; 0 when it is allowed now. */
  waitMs(keys: readonly string[], now: number): Promise<number>;
  recordFailure(keys: readonly string[], now: number): Promise<void>;
  /** Forgets the failures of `key` (after a successful sign-in under it). */
  forget(key: string): Promise<void>;
}

/**
 * The wait before the next attempt, given the failure times of each key (any order, any age): allowed again when
 * fewer than the maximum remain in the window under every key.
 */
export function waitMsOf(failuresPerKey: ReadonlyArray<readonly number[]>, now: number): number {
  let wait = 0;
  for (const all of failuresPerKey) {
    const times = all.filter((at) => now - at < SIGN_IN_WINDOW_MS).sort((first, second) => first - second);
    if (times.length < MAX_FAILED_SIGN_INS) continue;
    const freedAt = (times[times.length - MAX_FAILED_SIGN_INS] as number) + SIGN_IN_WINDOW_MS;
    wait = Math.max(wait, freedAt - now);
  }
  return wait;
}

/** A throttle counting failed sign-ins per key ("ip:..." and "name:...") in this process's memory. */
export function createSignInThrottle(): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number): number[] => (failures.get(key) ?? []).filter((at) => now - at < SIGN_IN_WINDOW_MS);
  return {
    async waitMs(keys, now) {
      return waitMsOf(
        keys.map((key) => recent(key, now)),
        now,
      );
    },
    async recordFailure(keys, now) {
      if (failures.size > PRUNE_ABOVE) {
        for (const key of [...failures.keys()]) if (recent(key, now).length === 0) failures.delete(key);
      }
      for (const key of keys) failures.set(key, [...recent(key, now), now].slice(-MAX_FAILED_SIGN_INS));
    },
    async forget(key) {
      failures.delete(key);
    },
  };
}
