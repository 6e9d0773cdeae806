// Rate limits shared by every replica (docs/configuration.md "[rate_limit]"): the buckets of
// docs/submission-rules.md "Rate limit" kept in Redis, each take one atomic Lua script on the Redis server's
// clock (TIME), so replicas with skewed clocks agree. A bucket key expires when its bucket would be full again,
// so Redis holds only buckets that carry information. Redis unreachable: a take fails (the submission is
// answered 503, never let through unlimited) and /health names "redis"; ioredis reconnects by itself.
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import { lazyModule } from '../../kit/lazy-module.js';
import type { FormConfig } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import type { FormLimiter, FormRateLimits, TakeResult } from '../../ports.js';
import { safeReason } from '../../kit/safe-reason.js';
import { UnavailableError } from '../../kit/unavailable-error.js';

const ioredis = lazyModule<typeof IoRedis>('ioredis');

/**
 * KEYS[1]: the bucket; ARGV[1]: tokens per hour. Times in whole microseconds (exact in Lua's doubles until
 * the year 2255). The stored value is the moment the bucket is full again; a take is allowed while that lies
 * at most (perHour - 1) token intervals ahead, as in src/forms/rules/rate-limiter.ts. Returns {1, 0} for a
 * token taken, {0, seconds} with the Retry-After otherwise. Redis before 5 needs replicate_commands() to write
 * after TIME; later versions always replicate effects and keep the call as a no-op.
 */
const TAKE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local perHour = tonumber(ARGV[1])
local interval = math.floor(3600000000 / perHour)
local maxDebt = (perHour - 1) * interval
local stored = redis.call('GET', KEYS[1])
local fullAt = now
if stored then fullAt = math.max(tonumber(stored), now) end
local debt = fullAt - now
if debt <= maxDebt then
  fullAt = fullAt + interval
  redis.call('SET', KEYS[1], string.format('%d', fullAt), 'PX', math.ceil((fullAt - now) / 1000))
  return {1, 0}
end
return {0, math.max(1, math.ceil((debt - maxDebt) / 1000000))}
`;

/** How long a take may wait for Redis before the submission is answered 503. */
const COMMAND_TIMEOUT_MS = 1_000;

type TakingRedis = Redis & { postboxTake(key: string, perHour: number): Promise<[number, number]> };

/** The limiters of `forms` over the Redis at `url`; the connection is made in the background and kept up. */
export function createRedisRateLimits(url: string, forms: ReadonlyArray<Pick<FormConfig, 'path' | 'rate_limit_per_hour'>>, logger: Logger): FormRateLimits {
  // No form with a rate limit: nothing to ask Redis, so no connection (and no outage to report).
  if (!forms.some((form) => form.rate_limit_per_hour > 0)) return { limiterFor: () => undefined, save: async () => undefined };
  const redis = new (ioredis().Redis)(url, {
    // A take while disconnected fails at once instead of waiting in a queue: the visitor gets 503 now.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  }) as TakingRedis;
  redis.defineCommand('postboxTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  let reachable: boolean | undefined;
  const note = (now: boolean, error?: unknown) => {
    if (reachable === now) return;
    reachable = now;
    if (now) logger.info({ event: 'redis_ready', part: 'rate_limit' }, 'redis reachable: rate limits are shared');
    else logger.error({ event: 'redis_unavailable', part: 'rate_limit', reason: safeReason(error) }, 'redis unreachable: rate-limited forms answer 503 until it is back');
  };
  redis.on('ready', () => note(true));
  redis.on('error', (error: unknown) => note(false, error));
  redis.on('end', () => note(false));

  const limiters = new Map<string, FormLimiter>();
  for (const form of forms) {
    if (form.rate_limit_per_hour <= 0) continue;
    const perHour = form.rate_limit_per_hour;
    const prefix = `postbox:rate:${form.path}:`;
    limiters.set(form.path, {
      async take(key): Promise<TakeResult> {
        let reply: [number, number];
        try {
          reply = await redis.postboxTake(prefix + key, perHour);
        } catch (error) {
          note(false, error);
          throw new UnavailableError('redis');
        }
        return reply[0] === 1 ? { allowed: true } : { allowed: false, retryAfterSeconds: reply[1] };
      },
    });
  }
  return {
    limiterFor: (formPath) => limiters.get(formPath),
    // The buckets live in Redis: nothing to write at shutdown.
    save: async () => undefined,
    unavailableParts: () => (redis.status === 'ready' ? [] : ['redis']),
    async close() {
      if (redis.status === 'end') return;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
