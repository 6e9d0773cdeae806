// /admin/automations (docs/admin.md "Automations"): each on_publish and digest automation with its last and next
// run and counts; "Pause" holds it in the state store and the page says who paused it, "Resume" lets it go on. In a
// real Chromium with axe-core: no serious or critical violation, before and after the pause.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createAutomationFiles } from '../../src/adapters/files/automation-files.js';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createAutomationPages } from '../../src/admin/campaign-pages/automation-pages.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { createPostAutomations, type PostAutomations } from '../../src/newsletter/automations/post-automations.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { launchChromium } from '../e2e/support/browser.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { systemTimers } from '../../src/kit/timers.js';
import { LISTS, SITE, subscribersOf } from '../newsletter/automations/automation-harness.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

describe('/admin/automations', () => {
  let browser: Browser;
  let app: TestAdmin;
  let server: { port: number; close(): Promise<void> };
  let cookie: string;
  let remove: () => Promise<void>;
  let automations: PostAutomations;
  const clock = createTestClock(Date.UTC(2026, 0, 1, 12));
  const base = () => `http://127.0.0.1:${server.port}`;

  before(async () => {
    const temp = await createTempDir('automation-pages');
    remove = temp.remove;
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const campaigns = createCampaignFiles(campaignsDirOf(dataDir));
    const post = { slug: 'launch', lang: 'en', title: 'Launch day', url: `${SITE.baseUrl}/blog/launch`, html: '<p>Here.</p>', date: '2026-01-01T13:00:00.000Z' };
    let published = false;
    automations = createPostAutomations({
      automations: [
        { id: 'posts', type: 'on_publish', list: 'newsletter', subject: '{{title}}' },
        { id: 'weekly', type: 'digest', list: 'newsletter', subject: 'This week', body: '', every: 'week', day: 1, time: '09:00' },
      ],
      lists: LISTS,
      segments: [],
      posts: {
        listPublished: () => (published ? [{ slug: post.slug, lang: post.lang, publishedAt: Date.parse(post.date), newsletter: true, primary: true }] : []),
        findPublishedPost: () => (published ? post : undefined),
        nextScheduledAt: () => (published ? undefined : Date.parse(post.date)),
      },
      subscribers: async () => subscribersOf(3),
      store: createAutomationFiles(dataDir, createJsonlFiles().append),
      campaigns,
      site: SITE,
      timeZone: 'Europe/Berlin',
      clock,
      timers: systemTimers,
      logger: captureLogs().logger,
    });
    await automations.runOnce();
    clock.advance(3_600_000);
    published = true;
    await automations.runOnce();
    app = await startTestAdmin({ dataDir, pages: createAutomationPages({ automations, campaigns }), clock });
    cookie = (await signIn(app)).id;
    server = await listenOnLoopback(createServer(app.listener));
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await automations?.stop();
    await browser?.close();
    await server?.close();
    await app?.close();
    await remove?.();
  });

  it('shows each automation, pauses and resumes one, with no serious or critical violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'postbox_admin', value: cookie, url: base() }]);
      const page = await context.newPage();
      assert.equal((await page.goto(`${base()}/admin/automations`))?.status(), 200);
      assert.deepEqual(await seriousViolations(page), []);
      const rows = await page.locator('tbody tr').allInnerTexts();
      assert.equal(rows.length, 2);
      assert.match(rows[0]!, /posts \(each post as it is published\)\s+list newsletter\s+Running\s+1 Jan 2026, 13:00\s+When a post is published\s+1\s+0\s+0\s+0\s+0/);
      // The next digest: Monday 5 January, 09:00 in Berlin, shown in the session's zone (UTC here).
      assert.match(rows[1]!, /weekly \(a digest every week\).*Not yet\s+5 Jan 2026, 08:00/s);

      await page.getByRole('button', { name: 'Pause posts' }).click();
      await page.waitForURL(`${base()}/admin/automations?notice=paused`);
      assert.match(await page.locator('tbody tr').first().innerText(), /Paused by .+ on 1 Jan 2026/);
      assert.deepEqual(await seriousViolations(page), [], 'after the pause');
      const [overview] = await automations.overview(async () => ({ sent: 0, failed: 0, skipped: 0 }));
      assert.ok(overview?.state?.paused, 'kept in the state store');

      await page.getByRole('button', { name: 'Resume posts' }).click();
      await page.waitForURL(`${base()}/admin/automations?notice=resumed`);
      assert.match(await page.locator('tbody tr').first().innerText(), /Running/);
    } finally {
      await context.close();
    }
  });

  it('answers 404 for an automation that does not exist', async () => {
    const session = await signIn(app);
    const answer = await app.inject({ method: 'POST', url: '/admin/automations/nope/pause', headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `csrf_token=${session.csrf}` });
    assert.equal(answer.statusCode, 404);
  });
});
