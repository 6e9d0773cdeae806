// The rate limiters of all forms and their snapshot file (docs/submission-rules.md "Rate limit",
// docs/forms-api.md "Time-outs and stopping"): loaded at start with refill for the downtime, written
// atomically at graceful shutdown.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FormConfig } from '../config/config.js';
import type { Logger } from '../log.js';
import { writeFileAtomically } from '../storage/atomic-file.js';
import {
  createRateLimiter,
  decodeRateLimitFile,
  encodeRateLimitFile,
  type RateLimiter,
  type RateLimiterSnapshot,
  type TakeResult,
} from './rules/rate-limiter.js';

export const RATE_LIMIT_SNAPSHOT_FILE = 'ratelimit-snapshot.json';

/** The buckets of one form: in this process (answering at once) or shared in Redis (src/storage/redis-rate-limits.ts). */
export interface FormLimiter {
  /** Takes a token for `key`; a shared limiter rejects with UnavailableError when its store cannot be reached. */
  take(key: string, nowMs: number): TakeResult | Promise<TakeResult>;
}

/** A part the service needs could not be reached (answered `503 {"error":"unavailable"}`, never bypassed). */
export class UnavailableError extends Error {
  constructor(readonly part: string) {
    super(`${part} is unavailable`);
    this.name = 'UnavailableError';
  }
}

export interface FormRateLimits {
  /** The limiter of the form at `formPath`; undefined when its rate_limit_per_hour is 0. */
  limiterFor(formPath: string): FormLimiter | undefined;
  /** Writes every limiter's state to the snapshot file (nothing for a shared store). */
  save(nowMs: number): Promise<void>;
  /** The parts that cannot be reached now, for /health ("redis"); none for limiters in memory. */
  unavailableParts?(): string[];
  /** Releases a connection. */
  close?(): Promise<void>;
}

/** One limiter per form with rate_limit_per_hour > 0; a missing or corrupt snapshot is logged and ignored. */
export async function loadFormRateLimits(
  forms: readonly FormConfig[],
  dataDir: string,
  nowMs: number,
  logger: Logger,
): Promise<FormRateLimits> {
  const file = path.join(dataDir, RATE_LIMIT_SNAPSHOT_FILE);
  const saved = await readSnapshot(file, logger);
  const limiters = new Map<string, RateLimiter>();
  for (const form of forms) {
    if (form.rate_limit_per_hour > 0) {
      const snapshot = saved && Object.hasOwn(saved, form.path) ? saved[form.path] : undefined;
      limiters.set(form.path, createRateLimiter(form.rate_limit_per_hour, snapshot, nowMs));
    }
  }
  return {
    limiterFor: (formPath) => limiters.get(formPath),
    async save(timeMs) {
      const perForm: Record<string, RateLimiterSnapshot> = {};
      for (const [formPath, limiter] of limiters) {
        perForm[formPath] = limiter.toSnapshot(timeMs);
      }
      await writeFileAtomically(file, encodeRateLimitFile(timeMs, perForm));
    },
  };
}

async function readSnapshot(file: string, logger: Logger): Promise<Record<string, RateLimiterSnapshot> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    logger.info({ event: 'ratelimit_snapshot_missing', file, reason: missing ? 'not found' : (error as NodeJS.ErrnoException).code }, 'no rate-limit snapshot loaded');
    return undefined;
  }
  const decoded = decodeRateLimitFile(text);
  if (!decoded) {
    logger.warn({ event: 'ratelimit_snapshot_corrupt', file }, 'rate-limit snapshot ignored: not a valid snapshot');
    return undefined;
  }
  logger.info({ event: 'ratelimit_snapshot_loaded', file }, 'rate-limit snapshot loaded');
  return decoded.perForm;
}
