// The rate limiters of all forms and their snapshot file (docs/submission-rules.md "Rate limit",
// docs/forms-api.md "Time-outs and stopping"): loaded at start with refill for the downtime, written
// atomically at graceful shutdown.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FormConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { FormRateLimits } from '../ports.js';
import { writeFileAtomically } from '../kit/files/atomic-file.js';
import {
  createRateLimiter,
  decodeRateLimitFile,
  encodeRateLimitFile,
  type RateLimiter,
  type RateLimiterSnapshot,
} from './rules/rate-limiter.js';

export type { FormLimiter, FormRateLimits } from '../ports.js';
export { UnavailableError } from '../kit/unavailable-error.js';

export const RATE_LIMIT_SNAPSHOT_FILE = 'ratelimit-snapshot.json';

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
