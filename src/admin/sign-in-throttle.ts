// Throttled sign-in (contract section 6): more than 5 failed attempts in 15 minutes from one address or for one
// name, and the next attempt is refused until the oldest of them is 15 minutes old. Counted in memory: a restart
// forgets them, which an attacker cannot cause from outside.

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILED_SIGN_INS = 5;

/** Beyond this many keys, the ones whose failures all expired are dropped. */
const PRUNE_ABOVE = 1_000;

export interface SignInThrottle {
  /** Milliseconds until an attempt under any of `keys` is allowed again; 0 when it is allowed now. */
  waitMs(keys: readonly string[], now: number): number;
  recordFailure(keys: readonly string[], now: number): void;
  /** Forgets the failures of `key` (after a successful sign-in under it). */
  forget(key: string): void;
}

/** A throttle counting failed sign-ins per key ("ip:..." and "name:..."). */
export function createSignInThrottle(): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number): number[] => (failures.get(key) ?? []).filter((at) => now - at < SIGN_IN_WINDOW_MS);
  return {
    waitMs(keys, now) {
      let wait = 0;
      for (const key of keys) {
        const times = recent(key, now);
        if (times.length < MAX_FAILED_SIGN_INS) continue;
        // Allowed again when fewer than the maximum remain in the window.
        const freedAt = (times[times.length - MAX_FAILED_SIGN_INS] as number) + SIGN_IN_WINDOW_MS;
        wait = Math.max(wait, freedAt - now);
      }
      return wait;
    },
    recordFailure(keys, now) {
      if (failures.size > PRUNE_ABOVE) {
        for (const key of [...failures.keys()]) if (recent(key, now).length === 0) failures.delete(key);
      }
      for (const key of keys) failures.set(key, [...recent(key, now), now].slice(-MAX_FAILED_SIGN_INS));
    },
    forget(key) {
      failures.delete(key);
    },
  };
}
