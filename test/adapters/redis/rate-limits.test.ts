// Rate limits shared by replicas through a real redis-server (docs/configuration.md "[rate_limit]"): a client's bucket
// holds across two forms services exactly, a bucket's key expires when it would be full, and Redis down means 503 and
// an unhealthy /health, never a bypassed limit, until it is back.
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { after, before, describe, it } from 'node:test';
import { contactForm, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { startRedisServer, type TestRedis } from '../../support/redis-server.js';
import { waitFor } from '../../support/wait.js';

const start = useTestFormsService();
const INVALID = JSON.stringify({ name: 'A', email: 'nope', message: 'short' });

describe('rate limits in Redis', () => {
  let redis: TestRedis;
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    await redis.close();
  });

  const replica = () => start({ forms: [contactForm({ rate_limit_per_hour: 10 })], extra: { rate_limit: { backend: 'redis', url: redis.url } } });
  const post = (service: TestFormsService) => service.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: INVALID });
  const healthy = async (service: TestFormsService) => (await service.app.inject({ method: 'GET', url: '/health' })).statusCode;

  it('holds a client to its limit across replicas: the 11th request is 429, whichever replica answers', async () => {
    const [first, second] = [await replica(), await replica()];
    await waitFor('both replicas to reach redis', async () => ((await healthy(first)) === 200 && (await healthy(second)) === 200 ? true : undefined));
    const statuses: number[] = [];
    for (let index = 0; index < 10; index += 1) statuses.push((await post(index % 2 === 0 ? first : second)).statusCode);
    assert.deepEqual(statuses, Array(10).fill(400), 'ten pass the limit (and fail validation)');
    for (const service of [first, second]) {
      const refused = await post(service);
      assert.equal(refused.statusCode, 429);
      // 10 an hour: one token comes back every 360 s.
      assert.equal(refused.headers['retry-after'], '360');
      assert.equal(refused.json().error, 'rate_limited');
    }
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys('postbox:rate:/contact:*');
      assert.equal(keys.length, 1, 'one bucket for the one client');
      const ttl = await client.pttl(keys[0]!);
      assert.ok(ttl > 3_500_000 && ttl <= 3_600_000, `the key expires when the bucket is full again (${ttl} ms)`);
    } finally {
      client.disconnect();
    }
  });

  it('answers 503 unavailable while Redis is down, never bypassing the limit, and recovers by itself', async () => {
    const service = await replica();
    await waitFor('the replica to reach redis', async () => ((await healthy(service)) === 200 ? true : undefined));
    await redis.stop();
    await waitFor('the replica to notice', async () => ((await healthy(service)) === 503 ? true : undefined));
    const health = await service.app.inject({ method: 'GET', url: '/health' });
    assert.deepEqual(health.json(), { status: 'unavailable', forms: 1, unavailable: ['redis'] });
    for (let index = 0; index < 20; index += 1) {
      const response = await post(service);
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().error, 'unavailable');
    }
    assert.ok(service.logs.lines().some((line) => line.event === 'rate_limit_unavailable'));
    await redis.start();
    await waitFor('the replica to reconnect', async () => ((await healthy(service)) === 200 ? true : undefined), 20_000);
    assert.equal((await post(service)).statusCode, 400, 'the limit is checked again, and the request passes it');
  });
});
