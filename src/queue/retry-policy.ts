// When a message that failed for a temporary reason is tried again (docs/delivery.md "Retries"): first after
// about a minute, then twice as long each time, never more than an hour apart, until `queue_max_hours` after it
// was queued. Pure: the time and the random jitter come in as arguments.

export interface RetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long after it was queued a message is given up (`queue_max_hours`). */
  maxAgeMs: number;
}

export const DEFAULT_FIRST_RETRY_MS = 60_000;
export const DEFAULT_MAX_RETRY_MS = 60 * 60_000;

/** The policy for `queue_max_hours`, with the spec's one-minute start and one-hour ceiling. */
export function retryPolicyOf(maxHours: number): RetryPolicy {
  return { firstDelayMs: DEFAULT_FIRST_RETRY_MS, maxDelayMs: DEFAULT_MAX_RETRY_MS, maxAgeMs: maxHours * 3_600_000 };
}

/**
 * When to try again after the `attempts`-th failed attempt, or undefined when the message is too old to be
 * tried again. `jitter` in [0, 1) spreads retries of messages that failed together by up to ±10 %.
 */
export function nextAttemptAt(policy: RetryPolicy, attempts: number, createdAt: number, now: number, jitter: number): number | undefined {
  const deadline = createdAt + policy.maxAgeMs;
  if (now >= deadline) return undefined;
  const base = Math.min(policy.firstDelayMs * 2 ** Math.max(0, attempts - 1), policy.maxDelayMs);
  const delay = Math.round(base * (0.9 + 0.2 * jitter));
  // The last try falls on the deadline itself, so a message is tried for its whole lifetime.
  return Math.min(now + delay, deadline);
}
