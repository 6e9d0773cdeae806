// The analytics' pure parts and the counting in memory (docs/analytics.md): a beacon read into a page view, bots and
// prefetches, the visitor's network and hash, a conversion's page, the report of a period, and the batches: written
// after a second, kept when the store fails, flushed at close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnalyticsStore } from '../../src/analytics/analytics-store.js';
import { createAnalytics } from '../../src/analytics/analytics.js';
import { isBotRequest } from '../../src/analytics/bots.js';
import { addDay, emptyDay, type DayCounts } from '../../src/analytics/day-counts.js';
import { createMemoryVisitors } from '../../src/analytics/memory-visitors.js';
import { readPageView } from '../../src/analytics/page-view.js';
import { daysEnding, reportOf } from '../../src/analytics/report.js';
import { networkOf, visitorHash } from '../../src/analytics/visitor.js';
import { conversionPageOf } from '../../src/forms/rules/conversion-page.js';
import { captureLogs } from '../support/log-capture.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

describe('a beacon', () => {
  it('is read into a path, the host of another site and a width class', () => {
    assert.deepEqual(readPageView('{"path":"/blog/a?x=1#top","referrer":"https://www.news.example/item?id=1","width":390}', 'example.com'), {
      path: '/blog/a',
      referrer: 'news.example',
      width: 'mobile',
    });
    assert.deepEqual(readPageView('{"path":"/","referrer":"https://www.example.com/blog","width":1440}', 'example.com'), { path: '/', referrer: '', width: 'desktop' });
    assert.equal(readPageView('{"path":"//evil.example/"}', 'example.com'), undefined);
    assert.equal(readPageView('{"path":"relative"}', 'example.com'), undefined);
    assert.equal(readPageView('not json', 'example.com'), undefined);
    assert.equal(readPageView(`{"path":"/${'a'.repeat(600)}"}`, 'example.com'), undefined);
  });
});

describe('bots and prefetches', () => {
  const table: Array<[Record<string, string>, boolean]> = [
    [{ 'user-agent': BROWSER }, false],
    [{ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, true],
    [{ 'user-agent': 'curl/8.5.0' }, true],
    [{ 'user-agent': 'Mozilla/5.0 HeadlessChrome/120.0' }, true],
    [{}, true],
    [{ 'user-agent': BROWSER, 'sec-purpose': 'prefetch;prerender' }, true],
    [{ 'user-agent': BROWSER, purpose: 'prefetch' }, true],
    [{ 'user-agent': BROWSER, 'x-moz': 'prefetch' }, true],
  ];
  for (const [headers, bot] of table) it(`${JSON.stringify(headers)} is ${bot ? 'not counted' : 'counted'}`, () => assert.equal(isBotRequest(headers), bot));
});

describe('a visitor', () => {
  it('is known by an IPv4 /24 or an IPv6 /48, never the address', () => {
    assert.equal(networkOf('203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkOf('::ffff:203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkOf('2001:db8:abcd:12::1'), '2001:db8:abcd::/48');
  });
  it('hashes differently on another day salt, the same within one', () => {
    const a = visitorHash(Buffer.alloc(32, 1), 'example.com', '203.0.113.0/24', BROWSER);
    assert.equal(a, visitorHash(Buffer.alloc(32, 1), 'example.com', '203.0.113.0/24', BROWSER));
    assert.notEqual(a, visitorHash(Buffer.alloc(32, 2), 'example.com', '203.0.113.0/24', BROWSER));
    assert.match(a, /^[0-9a-f]{32}$/);
  });
});

describe('a conversion page', () => {
  it('is _page, else the Referer path', () => {
    assert.equal(conversionPageOf('/pricing', 'https://example.com/'), '/pricing');
    assert.equal(conversionPageOf(undefined, 'https://example.com/contact?ref=1'), '/contact');
    assert.equal(conversionPageOf('//other', undefined), undefined);
    assert.equal(conversionPageOf(undefined, 'not a url'), undefined);
  });
});

describe('the report', () => {
  it('gives every day of the period, top pages and conversions beside the views of their page', () => {
    const day = (name: string, views: Record<string, number>, visitors: number, conversions: Record<string, Record<string, number>> = {}): DayCounts =>
      addDay(emptyDay(name), { ...emptyDay(name), views, visitors, conversions });
    const period = daysEnding('2026-03-02', 3);
    assert.deepEqual(period, ['2026-02-28', '2026-03-01', '2026-03-02']);
    const report = reportOf([day('2026-02-28', { '/': 3, '/contact': 10 }, 4), day('2026-03-02', { '/contact': 10 }, 2, { '/form': { '/contact': 5 } })], period);
    assert.deepEqual(report.days, [
      { day: '2026-02-28', views: 13, visitors: 4 },
      { day: '2026-03-01', views: 0, visitors: 0 },
      { day: '2026-03-02', views: 10, visitors: 2 },
    ]);
    assert.deepEqual(report.pages, [
      { path: '/contact', views: 20 },
      { path: '/', views: 3 },
    ]);
    assert.deepEqual(report.conversions, [{ form: '/form', page: '/contact', submissions: 5, views: 20 }]);
  });
});

describe('the counting', () => {
  function setUp() {
    const timers = createFakeTimer(Date.UTC(2026, 2, 1, 10));
    const batches: DayCounts[][] = [];
    let failing = false;
    const store: AnalyticsStore = {
      add: async (batch) => {
        if (failing) throw new Error('disk full');
        batches.push(structuredClone([...batch]));
      },
      read: async () => [],
    };
    const logs = captureLogs();
    const analytics = createAnalytics('example.com', { store, visitors: createMemoryVisitors(createCountingRandomBytes()), timers, logger: logs.logger });
    return { timers, batches, analytics, logs, fail: (now: boolean) => (failing = now) };
  }
  const view = { path: '/a', referrer: '', width: 'desktop' as const };

  it('writes one batch a second, a visitor once per day', async () => {
    const { timers, batches, analytics } = setUp();
    analytics.view(view, '203.0.113.5', BROWSER);
    analytics.view(view, '203.0.113.9', BROWSER);
    analytics.view(view, '198.51.100.1', BROWSER);
    analytics.convert('/contact', '/a');
    assert.equal(batches.length, 0);
    await timers.advance(1_000);
    await timers.until('a batch', () => batches[0]);
    assert.equal(batches.length, 1);
    assert.equal(batches[0]![0]!.views['/a'], 3);
    assert.equal(batches[0]![0]!.visitors, 2);
    assert.equal(batches[0]![0]!.conversions['/contact']!['/a'], 1);
  });

  it('keeps a batch the store refused for the next one, and writes the rest at close', async () => {
    const { timers, batches, analytics, fail, logs } = setUp();
    fail(true);
    analytics.view(view, '203.0.113.5', BROWSER);
    await timers.advance(1_000);
    await timers.until('the failure logged', () => logs.lines().find((line) => line.event === 'analytics_write_failed'));
    fail(false);
    analytics.view(view, '203.0.113.6', BROWSER);
    await analytics.close();
    assert.equal(batches.length, 1);
    assert.equal(batches[0]![0]!.views['/a'], 2);
    assert.equal(batches[0]![0]!.visitors, 1);
  });
});
