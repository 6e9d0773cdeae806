// Two replicas counting into one PostgreSQL (migration 15) with the day's salt and visitor sets in one Redis
// (docs/analytics.md "Visitors"): a visitor seen by both is counted once, views add up, conversions and
// referrers come back as written, the salt expires within 48 hours and no table holds a salt, hash or address.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createPostgresAnalyticsStore } from '../../src/adapters/postgres/analytics-store.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import { createRedisVisitorSets } from '../../src/adapters/redis/analytics-visitors.js';
import { createAnalytics, type Analytics } from '../../src/analytics/analytics.js';
import type { VisitorSets } from '../../src/analytics/analytics-store.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { captureLogs } from '../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { startRedisServer, type TestRedis } from '../support/redis-server.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1';
const DAY = '2026-03-01';

describe('analytics on two replicas', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let state: PostgresState;
  const visitorSets: VisitorSets[] = [];
  const replicas: Analytics[] = [];

  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    state = createPostgresState(postgres.url, captureLogs().logger);
    await state.migrated();
    const timers = createFakeTimer(Date.parse(`${DAY}T10:00:00Z`));
    for (let i = 0; i < 2; i++) {
      const visitors = createRedisVisitorSets(redis.url, randomBytes);
      visitorSets.push(visitors);
      replicas.push(createAnalytics('example.com', { store: createPostgresAnalyticsStore(state), visitors, timers, logger: captureLogs().logger }));
    }
  });

  after(async () => {
    for (const visitors of visitorSets) await visitors.close?.();
    await state?.close();
    await Promise.all([postgres?.close(), redis?.close()]);
  });

  it('counts a visitor seen by both replicas once', async () => {
    const [a, b] = replicas as [Analytics, Analytics];
    a.view({ path: '/pricing', referrer: 'news.example', width: 'mobile' }, '203.0.113.5', FIREFOX);
    b.view({ path: '/pricing', referrer: '', width: 'mobile' }, '203.0.113.77', FIREFOX);
    b.view({ path: '/blog/a', referrer: '', width: 'desktop' }, '2001:db8:1::5', SAFARI);
    a.convert('/contact', '/pricing');
    await Promise.all([a.flush(), b.flush()]);
    a.view({ path: '/blog/a', referrer: '', width: 'desktop' }, '2001:db8:1:ffff::9', SAFARI);
    await a.flush();

    const [day] = await createPostgresAnalyticsStore(state).read(DAY, DAY);
    assert.equal(day?.visitors, 2);
    assert.deepEqual({ ...day!.views }, { '/pricing': 2, '/blog/a': 2 });
    assert.deepEqual({ ...day!.referrers }, { 'news.example': 1 });
    assert.deepEqual({ ...day!.conversions['/contact'] }, { '/pricing': 1 });
  });

  it('keeps the salt in Redis for at most 48 hours, and nothing of a visitor in PostgreSQL', async () => {
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    try {
      const ttl = await client.ttl(`postbox:analytics:salt:${DAY}`);
      assert.ok(ttl > 47 * 3600 && ttl <= 48 * 3600, `ttl ${ttl}`);
    } finally {
      client.disconnect();
    }
    const { rows } = await state.query<{ text: string }>('SELECT row_to_json(c)::text AS text FROM analytics_counts c UNION ALL SELECT row_to_json(v)::text FROM analytics_visitors v');
    const written = rows.map((row) => row.text).join('\n');
    for (const secret of ['203.0.113', '2001:db8', 'Firefox', 'Safari']) assert.ok(!written.includes(secret), secret);
  });
});
