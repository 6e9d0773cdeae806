// Tokens taken once (docs/bounces.md "Where bounces come from"): Mailgun's signature covers a token and a
// timestamp, not the body, so the same signed request could be sent again within the window its timestamp
// allows. A token is held while its request is handled, kept once that succeeded, and let go when it failed,
// so that the provider's own retry of a failed request is still taken.

export interface ReplayGuard {
  /** Takes `token` for one request; false when it was taken before (or is being handled now). */
  take(token: string, now: number): boolean;
  /** The request that took `token` failed: it may come again. */
  release(token: string): void;
  /** How many tokens are remembered. */
  size(): number;
}

/**
 * A guard remembering each token for `windowMs` (older requests are refused by their timestamp anyway), and at
 * most `maxTokens`: when full, the oldest are forgotten first.
 */
export function createReplayGuard(windowMs: number, maxTokens = 100_000): ReplayGuard {
  // Insertion order is time order: a Map iterates oldest first.
  const takenAt = new Map<string, number>();
  const forgetOld = (now: number) => {
    for (const [token, at] of takenAt) {
      if (at > now - windowMs && takenAt.size < maxTokens) break;
      takenAt.delete(token);
    }
  };
  return {
    take(token, now) {
      forgetOld(now);
      if (takenAt.has(token)) return false;
      takenAt.set(token, now);
      return true;
    },
    release(token) {
      takenAt.delete(token);
    },
    size: () => takenAt.size,
  };
}
