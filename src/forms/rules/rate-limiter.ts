// Per-client token buckets of one form (docs/submission-rules.md "Rate limit", bounded memory and the snapshot
// included). Pure: the caller passes the time; nothing here reads a clock or a file.
//
// A bucket holds `perHour` tokens and refills continuously at perHour/3600 tokens per second; a new key
// starts full. Each bucket is stored as one number, the moment it will be full again ("full at"): its tokens
// at time t are perHour - max(0, fullAt - t) / interval, where interval = 3600 s / perHour is the time one
// token takes to come back. Times are kept in units of ms × perHour, so that with whole-millisecond clocks
// every step is exact integer arithmetic (an hour of refill is one token per 3,600,000 units).
//
// Bounded memory: a full bucket carries no information and is dropped. Buckets are kept in last-update
// order; each take first drops buckets from the old end while the oldest is full, so every bucket is
// dropped at most once per update (amortized O(1)) and no bucket outlives an hour without a take.
// The limiter's clock never runs backwards: an earlier `nowMs` than one already seen counts as no time.
import type { TakeResult } from '../../ports.js';
import { createBucketTable } from './bucket-table.js';

const MS_PER_HOUR = 3_600_000;

export type { TakeResult };

/** JSON-serializable state of the non-full buckets at `takenAtMs`: [key, tokens left] pairs. */
export interface RateLimiterSnapshot {
  takenAtMs: number;
  buckets: Array<[string, number]>;
}

/** The buckets of one form, keyed by client IP. */
export interface RateLimiter {
  /** Takes a token for `key` at `nowMs` if one is left. */
  take(key: string, nowMs: number): TakeResult;
  /** Buckets currently tracked (full ones may linger until the next take drops them). */
  size(): number;
  /** The non-full buckets at `nowMs`, for the graceful-shutdown snapshot. */
  toSnapshot(nowMs: number): RateLimiterSnapshot;
}

/**
 * A limiter of `perHour` tokens per key (`perHour` > 0; a form with 0 gets no limiter). With a snapshot, its
 * buckets are restored with the refill they earned between `snapshot.takenAtMs` and `nowMs` (the downtime);
 * malformed snapshot content is ignored, entry by entry.
 */
export function createRateLimiter(perHour: number, snapshot?: RateLimiterSnapshot, nowMs?: number): RateLimiter {
  if (!Number.isFinite(perHour) || perHour <= 0) throw new RangeError(`perHour must be a positive number, got ${perHour}`);
  const table = createBucketTable(); // key -> fullAt, in units
  const tokenUnits = MS_PER_HOUR; // units one token takes to refill
  const maxDebt = (perHour - 1) * tokenUnits; // a take is allowed while fullAt - now <= maxDebt
  let originMs: number | undefined;
  let latestUnits = 0;

  /** Current time in units since the first time seen, never decreasing. */
  function advance(timeMs: number): number {
    if (!Number.isFinite(timeMs)) return latestUnits;
    originMs ??= timeMs;
    latestUnits = Math.max(latestUnits, (timeMs - originMs) * perHour);
    return latestUnits;
  }

  function dropFullBuckets(now: number): void {
    for (let oldest = table.oldestValue(); oldest !== undefined && oldest <= now; oldest = table.oldestValue()) {
      table.deleteOldest();
    }
  }

  const restored = sanitizeSnapshot(snapshot);
  if (restored) {
    const takenAt = advance(restored.takenAtMs);
    const now = advance(nowMs ?? restored.takenAtMs);
    for (const [key, tokens] of restored.buckets) {
      const debtAtSnapshot = Math.round((perHour - Math.min(tokens, perHour)) * tokenUnits);
      const fullAt = takenAt + debtAtSnapshot;
      if (fullAt > now) table.set(key, fullAt);
    }
  } else if (nowMs !== undefined) {
    advance(nowMs);
  }

  return {
    take(key, timeMs) {
      const now = advance(timeMs);
      dropFullBuckets(now);
      const fullAt = Math.max(table.get(key) ?? now, now);
      const debt = fullAt - now;
      if (debt <= maxDebt) {
        table.set(key, fullAt + tokenUnits);
        return { allowed: true };
      }
      const waitMs = (debt - maxDebt) / perHour;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
    size: () => table.size(),
    toSnapshot(timeMs) {
      const now = advance(timeMs);
      const buckets: Array<[string, number]> = [];
      for (const [key, fullAt] of table.entries()) {
        if (fullAt > now) buckets.push([key, perHour - (fullAt - now) / tokenUnits]);
      }
      return { takenAtMs: (originMs ?? timeMs) + now / perHour, buckets };
    },
  };
}

/** The usable part of a snapshot from disk: undefined if its frame is broken, bad entries left out. */
function sanitizeSnapshot(value: unknown): RateLimiterSnapshot | undefined {
  if (!isRecord(value) || !Number.isFinite(value.takenAtMs) || !Array.isArray(value.buckets)) return undefined;
  const buckets: Array<[string, number]> = [];
  for (const entry of value.buckets) {
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [key, tokens] = entry as unknown[];
    if (typeof key === 'string' && typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) {
      buckets.push([key, tokens]);
    }
  }
  return { takenAtMs: value.takenAtMs as number, buckets };
}

const FILE_VERSION = 1;

/** The snapshot file of all forms (`data_dir/ratelimit-snapshot.json`), keyed by form path. */
export function encodeRateLimitFile(savedAtMs: number, perForm: Record<string, RateLimiterSnapshot>): string {
  return `${JSON.stringify({ version: FILE_VERSION, savedAtMs, forms: perForm })}\n`;
}

/** Reads a snapshot file; undefined when it is not one (corrupt, truncated, other version). */
export function decodeRateLimitFile(
  text: string,
): { savedAtMs: number; perForm: Record<string, RateLimiterSnapshot> } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || parsed.version !== FILE_VERSION || !Number.isFinite(parsed.savedAtMs) || !isRecord(parsed.forms)) {
    return undefined;
  }
  const perForm: Record<string, RateLimiterSnapshot> = {};
  for (const [path, snapshot] of Object.entries(parsed.forms)) {
    const usable = sanitizeSnapshot(snapshot);
    if (usable) Object.defineProperty(perForm, path, { value: usable, enumerable: true, writable: true, configurable: true });
  }
  return { savedAtMs: parsed.savedAtMs as number, perForm };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
