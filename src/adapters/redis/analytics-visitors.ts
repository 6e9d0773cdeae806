// The analytics' day salt and visitor sets shared by replicas (docs/analytics.md "Visitors"), in the Redis of
// `[rate_limit]`: the salt of a day is one key made by whichever replica asks first (SET NX) with a 48-hour expiry,
// and the visitors of a day a HyperLogLog (PFADD, PFCOUNT) that expires 48 hours after its last addition. A replica
// keeps the salts it read in memory; neither salts nor hashes are ever written beside the counts.
import type * as IoRedis from 'ioredis';
import type { VisitorSets } from '../../analytics/analytics-store.js';
import { lazyModule } from '../../kit/lazy-module.js';
import type { RandomBytes } from '../../ports.js';

const ioredis = lazyModule<typeof IoRedis>('ioredis');

const LIFETIME_SECONDS = 48 * 3600;
const SALT_BYTES = 32;
const PREFIX = 'postbox:analytics:';

export function createRedisVisitorSets(url: string, randomBytes: RandomBytes): VisitorSets {
  const redis = new (ioredis().Redis)(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 2_000, retryStrategy: (attempt) => Math.min(attempt * 200, 2_000) });
  redis.on('error', () => undefined);
  const salts = new Map<string, Buffer>();
  return {
    async saltOf(day) {
      const known = salts.get(day);
      if (known) return known;
      const key = `${PREFIX}salt:${day}`;
      await redis.set(key, randomBytes(SALT_BYTES).toString('hex'), 'EX', LIFETIME_SECONDS, 'NX');
      const stored = await redis.get(key);
      if (stored === null) throw new Error('the day salt vanished from redis');
      const salt = Buffer.from(stored, 'hex');
      salts.set(day, salt);
      for (const old of [...salts.keys()].sort().slice(0, -2)) salts.delete(old);
      return salt;
    },
    async add(day, hashes) {
      const key = `${PREFIX}visitors:${day}`;
      const multi = redis.multi();
      if (hashes.length > 0) multi.pfadd(key, ...hashes);
      multi.expire(key, LIFETIME_SECONDS);
      multi.pfcount(key);
      const replies = await multi.exec();
      const counted = replies?.at(-1);
      if (!counted || counted[0]) throw counted?.[0] ?? new Error('redis did not count the visitors');
      return Number(counted[1]);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
