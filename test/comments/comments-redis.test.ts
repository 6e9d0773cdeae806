// The comment limit per address shared in Redis ([rate_limit] backend = "redis", docs/comments.md "Sending a
// comment"): two replicas on one real redis-server let exactly rate_limit_per_hour of a burst through between
// them, and a Redis that cannot be reached is answered 503, never let through.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedisServer, type TestRedis } from '../support/redis-server.js';
import { waitFor } from '../support/wait.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

describe('comments with the rate limit in Redis', () => {
  let redis: TestRedis;
  const apps: CommentsApp[] = [];
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    for (const app of apps.splice(0)) await app.close();
    await redis?.close();
  });

  it('counts a burst sent to two replicas in one bucket, and answers 503 while Redis is away', async () => {
    const replicas = await Promise.all([0, 1].map(() => startCommentsApp({ moderation: 'none', rate_limit_per_hour: 6 }, { rate_limit: { backend: 'redis', url: redis.url } })));
    apps.push(...replicas);
    // Each replica connects in the background: one comment each once it has (two of the six tokens).
    for (const [index, replica] of replicas.entries()) {
      await waitFor(`replica ${index} connected to Redis`, async () => ((await replica.post('hello', { name: 'Ada', text: `ready ${index}` })).statusCode === 202 ? true : undefined), 10_000);
    }
    const burst = await Promise.all(Array.from({ length: 12 }, (_, index) => replicas[index % 2]!.post('hello', { name: 'Ada', text: `burst ${index}` })));
    const statuses = burst.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 202).length, 4, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 8);

    await redis.stop();
    const away = await replicas[0]!.post('hello', { name: 'Bob', text: 'while Redis is away' });
    assert.equal(away.statusCode, 503);
    assert.equal((away.json() as { error: string }).error, 'unavailable');
  });
});
