// axe-core in a real Chromium on the pages of the spam quarantine (docs/admin.md "Quarantine", "Dashboard"): the
// inbox's forms with their spam counts, a form's inbox with its link, a Spam view with entries, reasons, "Not spam"
// buttons, a notice and the link to older ones, an empty Spam view, and the dashboard with a spam chart. The admin
// runs in this process on a loopback socket; no serious or critical violation on any of them.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createFileArchiveReader } from '../../src/adapters/files/archive-reader-files.js';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createFileSources } from '../../src/adapters/files/dashboard-sources-files.js';
import { createSpamFiles, spamDirOf } from '../../src/adapters/files/spam-files.js';
import { createDashboardPages } from '../../src/admin/dashboard-pages/dashboard-pages.js';
import { createInboxPages } from '../../src/admin/inbox-pages/inbox-pages.js';
import { createSpamPages } from '../../src/admin/spam-pages/spam-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { launchChromium } from '../e2e/support/browser.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { loadNewsletterConfig } from '../support/newsletter.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('the spam pages in Chromium', () => {
  let browser: Browser;
  let app: TestAdmin;
  let server: { port: number; close(): Promise<void> };
  let cookie: string;
  let remove: () => Promise<void>;

  before(async () => {
    const temp = await createTempDir('spam-axe');
    remove = temp.remove;
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const config = loadNewsletterConfig(dataDir, [
      { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
      { path: '/plain', type: 'generic', allowed_origins: ['https://example.com'] },
      { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
    ]);
    await writeFile(path.join(dataDir, 'contact.jsonl'), `${JSON.stringify({ received_at: '2026-11-22T10:00:00Z', form: '/contact', name: 'Ann', email: 'ann@example.org', message: 'Hello' })}\n`);
    const store = createSpamFiles(spamDirOf(dataDir));
    for (let index = 0; index < 55; index += 1) {
      await store.quarantine({
        form: '/contact',
        receivedAt: new Date(NOW - index * 3_600_000).toISOString(),
        reasons: index % 2 === 0 ? ['links', 'words'] : ['proof_of_work'],
        submission: { name: `Sender <b>${index}</b>`, email: `sender${index}@example.org`, message: `Buy now at https://spam.example/${index}\nand again` },
      });
    }
    await store.quarantine({ form: '/newsletter', receivedAt: new Date(NOW).toISOString(), reasons: ['too_fast'], submission: { email: 'bot@example.org' } });
    const logger = captureLogs().logger;
    const clock = createTestClock(NOW);
    const pages = [
      ...createDashboardPages(
        {
          ...createFileSources(dataDir),
          forms: config.forms,
          clock,
          listVersions: () => undefined,
          readings: () => undefined,
          newsletter: () => undefined,
          campaigns: createCampaignFiles(campaignsDirOf(dataDir)),
          spam: store,
        },
        { readSubscribers: async () => [], logger },
      ),
      ...createPlaceholderPages(),
      ...createInboxPages({ forms: config.forms, archives: createFileArchiveReader(dataDir, createJsonlFiles().exclusive), spam: store, logger }),
      ...createSpamPages({ forms: config.forms, store, clock, release: async () => 'released' }),
    ];
    app = await startTestAdmin({ dataDir, pages, clock });
    cookie = (await signIn(app)).id;
    server = await listenOnLoopback(createServer(app.listener));
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await server?.close();
    await app?.close();
    await remove?.();
  });

  it('finds no serious or critical violation on any of them', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      await context.addCookies([{ name: 'postbox_admin', value: cookie, url: base }]);
      const page = await context.newPage();
      for (const url of ['/admin/inbox', '/admin/inbox/contact', '/admin/spam/contact?notice=released', '/admin/spam/plain', '/admin/spam/newsletter', '/admin']) {
        const answer = await page.goto(`${base}${url}`);
        assert.equal(answer?.status(), 200, url);
        assert.deepEqual(await seriousViolations(page), [], url);
      }
      // The page behind "Older submissions" too.
      await page.goto(`${base}/admin/spam/contact`);
      await page.click('a[rel="next"]');
      assert.match(page.url(), /\?before=/);
      assert.equal(await page.locator('input[name="id"]').count(), 5);
      assert.deepEqual(await seriousViolations(page), [], 'the older page');
    } finally {
      await context.close();
    }
  });
});
