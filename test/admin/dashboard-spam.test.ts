// The dashboard's spam series (docs/admin.md "Dashboard"): per form with submissions taken for spam in the last 30
// days, a day chart of them from the quarantine's countByDay (released ones included, older ones and other days not),
// linking to the form's Spam view; a sentence when there was none; no section without a quarantine.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createFileSources } from '../../src/adapters/files/dashboard-sources-files.js';
import { createSpamFiles, spamDirOf } from '../../src/adapters/files/spam-files.js';
import { gatherDashboard } from '../../src/admin/dashboard-pages/dashboard-data.js';
import { createDashboardPages } from '../../src/admin/dashboard-pages/dashboard-pages.js';
import type { DashboardSources } from '../../src/admin/dashboard-pages/dashboard-sources.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import type { SpamStore } from '../../src/forms/spam/quarantine.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { loadNewsletterConfig } from '../support/newsletter.js';
import { spamEntry } from '../support/spam-store-contract.js';
import { withTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin } from './admin-app.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const at = (iso: string) => Date.parse(iso);

/** The dashboard's sources over `dataDir`, with `spam` as the quarantine when given. */
async function sourcesOf(dataDir: string, spam?: SpamStore): Promise<DashboardSources> {
  const config = loadNewsletterConfig(dataDir, [
    { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
    { path: '/plain', type: 'generic', allowed_origins: ['https://example.com'] },
    { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
  ]);
  return {
    ...createFileSources(dataDir),
    forms: config.forms,
    clock: createTestClock(NOW),
    listVersions: () => undefined,
    readings: () => undefined,
    newsletter: () => undefined,
    campaigns: createCampaignFiles(campaignsDirOf(dataDir)),
    ...(spam ? { spam } : {}),
  };
}

describe('the dashboard’s spam series', () => {
  it('charts each form’s spam per UTC day over the 30 days, released ones included', async () => {
    await withTempDir('dashboard-spam', async (dir) => {
      const dataDir = path.join(dir, 'data');
      await mkdir(dataDir);
      const spam = createSpamFiles(spamDirOf(dataDir));
      const entries: Array<[string, string]> = [
        ['/plain', '2026-10-24T23:59:59Z'],
        ['/plain', '2026-10-25T00:00:00Z'],
        ['/plain', '2026-11-20T01:00:00Z'],
        ['/plain', '2026-11-20T23:59:00Z'],
        ['/plain', '2026-11-20T12:00:00Z'],
        ['/newsletter', '2026-11-23T11:00:00Z'],
      ];
      const ids = [];
      for (const [index, [form, time]] of entries.entries()) ids.push(await spam.quarantine(spamEntry(form, index, { at: at(time) })));
      await spam.claim(ids[4]!, NOW, 600_000);
      await spam.released(ids[4]!, NOW);

      const dashboard = await gatherDashboard(await sourcesOf(dataDir, spam));
      assert.deepEqual(dashboard.spam?.map((chart) => chart.form), ['/plain', '/newsletter'], 'the config’s order, forms without spam left out');
      const plain = new Map(dashboard.spam![0]!.days.map((day) => [day.day, day.value]));
      assert.equal(plain.size, 30);
      assert.equal(plain.get('2026-10-25'), 1, 'the first day of the window');
      assert.equal(plain.has('2026-10-24'), false, 'the day before is not counted');
      assert.equal(plain.get('2026-11-20'), 3, 'the released one counts');
      assert.equal([...plain.values()].reduce((sum, count) => sum + count, 0), 4);
      assert.equal(dashboard.spam![1]!.days.at(-1)?.value, 1);

      const pages = [...createDashboardPages(await sourcesOf(dataDir, spam), { readSubscribers: async () => [], logger: captureLogs().logger }), ...createPlaceholderPages()];
      const app = await startTestAdmin({ dataDir, pages });
      try {
        const session = await signIn(app);
        const page = await app.inject({ method: 'GET', url: '/admin', headers: { cookie: session.cookie } });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /<h2>Spam<\/h2>/);
        assert.match(page.body, /Spam per day to \/plain: <strong>4 submissions taken for spam in 30 days, most on 2026-11-20 \(3\)<\/strong>/);
        assert.match(page.body, /Spam per day to \/newsletter: <strong>1 submission taken for spam in 30 days, most on 2026-11-23 \(1\)<\/strong>/);
        assert.match(page.body, /<a href="\/admin\/spam\/plain">The spam of \/plain<\/a>/);
        assert.match(page.body, /<a href="\/admin\/spam\/newsletter">The spam of \/newsletter<\/a>/);
        assert.match(page.body, /<th scope="col">Taken for spam<\/th>/);
        assert.doesNotMatch(page.body, /Spam per day to \/contact/);
      } finally {
        await app.close();
      }
    });
  });

  it('says so when nothing was taken for spam, and has no section without a quarantine', async () => {
    await withTempDir('dashboard-spam', async (dir) => {
      const dataDir = path.join(dir, 'data');
      await mkdir(dataDir);
      const spam = createSpamFiles(spamDirOf(dataDir));
      await spam.quarantine(spamEntry('/contact', 1, { at: at('2026-10-01T00:00:00Z') }));
      assert.deepEqual((await gatherDashboard(await sourcesOf(dataDir, spam))).spam, [], 'older than the window: no chart');
      assert.equal((await gatherDashboard(await sourcesOf(dataDir))).spam, undefined);
      const pages = [...createDashboardPages(await sourcesOf(dataDir, spam), { readSubscribers: async () => [], logger: captureLogs().logger }), ...createPlaceholderPages()];
      const app = await startTestAdmin({ dataDir, pages });
      try {
        const session = await signIn(app);
        const page = await app.inject({ method: 'GET', url: '/admin', headers: { cookie: session.cookie } });
        assert.match(page.body, /<h2>Spam<\/h2><p>No submission was taken for spam in the last 30 days\.<\/p>/);
      } finally {
        await app.close();
      }
    });
  });
});
