// /admin/analytics (docs/analytics.md "In /admin"): the period's views and visitors as SVG charts with their numbers
// in tables, the top pages and referrers, conversions per form and page beside the page's views, the periods, and
// the CSV export; then axe-core in a real Chromium finds no serious or critical violation on it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createAnalyticsPages } from '../../src/admin/analytics-pages/analytics-pages.js';
import { EDITORS } from '../../src/admin/accounts/roles.js';
import type { AnalyticsStore } from '../../src/analytics/analytics-store.js';
import { addDay, emptyDay, type DayCounts } from '../../src/analytics/day-counts.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { launchChromium } from '../e2e/support/browser.js';
import { createTestClock } from '../support/clock.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

function day(name: string, visitors: number, views: Record<string, number>, referrers: Record<string, number> = {}, conversions: Record<string, Record<string, number>> = {}): DayCounts {
  return addDay(emptyDay(name), { ...emptyDay(name), visitors, views, referrers, conversions });
}

const DAYS = [
  day('2026-11-23', 5, { '/pricing': 8, '/<b>x</b>': 2 }, { 'news.example': 3 }, { '/contact': { '/pricing': 2 } }),
  day('2026-11-20', 3, { '/pricing': 2 }),
  day('2026-01-10', 9, { '/old': 40 }),
];

describe('/admin/analytics', () => {
  let app: TestAdmin;
  let cookie: string;
  let remove: () => Promise<void>;
  let browser: Browser | undefined;
  let server: { port: number; close(): Promise<void> } | undefined;
  const asked: Array<[string, string]> = [];

  before(async () => {
    const temp = await createTempDir('analytics-pages');
    remove = temp.remove;
    const store: Pick<AnalyticsStore, 'read'> = {
      read: async (from, to) => {
        asked.push([from, to]);
        return DAYS.filter((counts) => counts.day >= from && counts.day <= to).reverse();
      },
    };
    const clock = createTestClock(NOW);
    const pages = createAnalyticsPages({ store, clock }).map((route) => ({ ...route, roles: EDITORS }));
    app = await startTestAdmin({ dataDir: temp.dir, pages, clock });
    cookie = (await signIn(app)).cookie;
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await app?.close();
    await remove?.();
  });

  it('shows the last 30 days: charts with tables, top pages, referrers and conversions', async () => {
    const answer = await app.inject({ method: 'GET', url: '/admin/analytics', headers: { cookie } });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(asked.at(-1), ['2026-10-25', '2026-11-23']);
    const html = answer.body;
    assert.equal(html.match(/<svg[^>]*role="img"/g)?.length, 2);
    assert.match(html, /Page views: <strong>/);
    assert.match(html, /<td>2026-11-23<\/td><td>10<\/td>/);
    assert.match(html, /<td>\/pricing<\/td><td>10<\/td>/);
    assert.match(html, /<td>\/&lt;b>x&lt;\/b><\/td>/);
    assert.match(html, /<td>news.example<\/td><td>3<\/td>/);
    assert.match(html, /<td>\/contact<\/td><td>\/pricing<\/td><td>2<\/td><td>10<\/td><td>20.0 %<\/td>/);
    assert.doesNotMatch(html, /\/old/);
    assert.doesNotMatch(html, /not being counted/);
  });

  it('shows a year by week, and exports the period as CSV', async () => {
    const year = await app.inject({ method: 'GET', url: '/admin/analytics?days=365', headers: { cookie } });
    assert.equal(year.statusCode, 200);
    assert.deepEqual(asked.at(-1), ['2025-11-24', '2026-11-23']);
    assert.match(year.body, /Page views per week/);
    assert.match(year.body, /<td>\/old<\/td><td>40<\/td>/);
    const csv = await app.inject({ method: 'GET', url: '/admin/analytics.csv?days=7', headers: { cookie } });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(lines[0], 'day,kind,name,page,count');
    assert.ok(lines.includes('2026-11-23,conversion,/contact,/pricing,2'));
    assert.ok(lines.includes('2026-11-20,visitors,,,3'));
    assert.ok(!lines.some((line) => line.includes('/old')));
  });

  it('finds no serious or critical violation in Chromium', { timeout: 120_000 }, async () => {
    server = await listenOnLoopback(createServer(app.listener));
    browser = await launchChromium();
    const context = await browser.newContext();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const id = /postbox_admin=([^;]+)/.exec(cookie)?.[1] ?? cookie;
      await context.addCookies([{ name: 'postbox_admin', value: id, url: base }]);
      const page = await context.newPage();
      for (const url of ['/admin/analytics', '/admin/analytics?days=7', '/admin/analytics?days=365']) {
        const answer = await page.goto(`${base}${url}`);
        assert.equal(answer?.status(), 200, url);
        assert.deepEqual(await seriousViolations(page), [], url);
      }
    } finally {
      await context.close();
    }
  });
});
