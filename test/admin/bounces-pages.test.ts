// /admin/bounces and /admin/bounces.csv (docs/admin.md "Bounces") through the admin's own guard over the files
// store: the suppressed addresses newest first with kind, date, reason and source; "Remove" behind the CSRF check;
// the CSV with formulas defused; owners only, in the navigation too. The campaign page of a campaign that paused
// itself says why and offers "Resume". axe-core, in a real Chromium, finds no serious violation on these pages.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { load } from 'cheerio';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createSuppressionFiles } from '../../src/adapters/files/suppressions.js';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { EDITORS } from '../../src/admin/accounts/roles.js';
import { createBouncesPages } from '../../src/admin/bounces-pages/bounces-pages.js';
import { createCampaignPages } from '../../src/admin/campaign-pages/campaign-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import type { BounceStore, Suppression } from '../../src/bounces/bounce-store.js';
import type { CampaignStore } from '../../src/newsletter/campaigns/campaign-store.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { launchChromium } from '../e2e/support/browser.js';
import { createTestClock, TEST_EPOCH_MS } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';

const CAMPAIGN = '20261123T120000Z-abcd';

function suppression(address: string, minutes: number, fields: Partial<Suppression> = {}): Suppression {
  return { address, kind: 'hard', at: TEST_EPOCH_MS + minutes * 60_000, reason: '550 5.1.1 <address>: user unknown', source: 'imap', ...fields };
}

interface Setup {
  app: TestAdmin;
  store: BounceStore;
  campaigns: CampaignStore;
  logs: LogCapture;
  resumed: Array<[string, string]>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(): Promise<Setup> {
  const temp = await createTempDir('bounces-pages');
  const hash = await testHash();
  const store = createSuppressionFiles(temp.dir);
  const campaigns = createCampaignFiles(campaignsDirOf(temp.dir));
  const logs = captureLogs();
  const resumed: Array<[string, string]> = [];
  const accounts = createAccounts([{ name: 'jane', password_hash: hash }], createMemoryAccountStore([{ name: 'ed', role: 'editor', passwordHash: hash, generation: 0, passkeys: [], createdAt: TEST_EPOCH_MS }]));
  const app = await startTestAdmin({
    dataDir: temp.dir,
    clock: createTestClock(),
    accounts,
    pages: [
      ...createPlaceholderPages(),
      ...createBouncesPages({ store, logger: logs.logger }),
      ...createCampaignPages({
        store: campaigns,
        resume: async (id, by) => {
          resumed.push([id, by]);
          return id === CAMPAIGN ? 'resumed' : 'unknown';
        },
        logger: logs.logger,
      }).map((route) => ({ ...route, roles: EDITORS })),
    ],
  });
  cleanups.push(async () => {
    await app.close();
    await temp.remove();
  });
  return { app, store, campaigns, logs, resumed };
}

/** A campaign that paused itself after 120 mails. */
async function pausedCampaign(campaigns: CampaignStore): Promise<void> {
  await campaigns.create(
    { id: CAMPAIGN, form: '/newsletter', slug: 'news', lang: 'en', subject: 'News of the week', post_url: 'https://example.com/blog/news', created_at: '2026-11-23T12:00:00.000Z', recipients: 300, resend: false },
    { subject: 'News of the week', lang: 'en', html: '<p>News</p>', text: 'News' },
    Array.from({ length: 300 }, (_, index) => `reader${index}@example.org`),
  );
  await campaigns.append(CAMPAIGN, { started_at: '2026-11-23T12:00:01.000Z' });
  for (let index = 0; index < 120; index += 1) await campaigns.append(CAMPAIGN, { r: index, s: 'sent' });
  await campaigns.append(CAMPAIGN, { paused_at: '2026-11-23T12:05:00.000Z', reason: '10 hard bounces for 120 mails sent (8.3 %, more than 5 %)', sent: 120, hard: 10, complaint: 0 });
}

/** The rows of the page's table, as the text of their cells (a row's button: its visible label). */
function rowsOf(html: string): string[][] {
  const $ = load(html);
  $('.admin-visually-hidden').remove();
  return $('tbody tr')
    .toArray()
    .map((row) => $(row).find('td').toArray().map((cell) => $(cell).text().trim()));
}

describe('/admin/bounces', () => {
  it('lists the suppressed addresses newest first with kind, date, reason and source, linked from the navigation', async () => {
    const { app, store } = await setUp();
    await store.suppress(suppression('old@example.org', 0));
    await store.suppress(suppression('spam@example.org', 90, { kind: 'complaint', reason: 'abuse', source: 'ses' }));
    await store.suppress(suppression('"<b>x</b>"@example.org', 30, { kind: 'soft', reason: '<script>alert(1)</script>', source: 'smtp' }));
    const owner = await startSession(app, 'jane');
    const page = await app.inject({ method: 'GET', url: '/admin/bounces', headers: { cookie: owner.cookie } });
    assert.equal(page.statusCode, 200);
    assert.deepEqual(rowsOf(page.body), [
      ['spam@example.org', 'Complaint', '1 May 2024, 13:30', 'abuse', 'ses', 'Remove'],
      ['"<b>x</b>"@example.org', 'Soft bounces', '1 May 2024, 12:30', '<script>alert(1)</script>', 'smtp', 'Remove'],
      ['old@example.org', 'Hard bounce', '1 May 2024, 12:00', '550 5.1.1 <address>: user unknown', 'imap', 'Remove'],
    ]);
    assert.doesNotMatch(page.body, /<script>alert|<b>x/, 'text is escaped');
    assert.match(page.body, /<a href="\/admin\/bounces" aria-current="page">Bounces<\/a>/);
    assert.match(page.body, /<a class="admin-button-link" href="\/admin\/bounces.csv" download>Download CSV<\/a>/);
  });

  it('is for owners only: an editor is refused and does not see it in the navigation', async () => {
    const { app } = await setUp();
    const editor = await startSession(app, 'ed');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/bounces', headers: { cookie: editor.cookie } })).statusCode, 403);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/bounces.csv', headers: { cookie: editor.cookie } })).statusCode, 403);
    const campaigns = await app.inject({ method: 'GET', url: '/admin/campaigns', headers: { cookie: editor.cookie } });
    assert.equal(campaigns.statusCode, 200);
    assert.doesNotMatch(campaigns.body, /href="\/admin\/bounces"/);
  });

  it('removes an address with "Remove", behind the CSRF check, and says so', async () => {
    const { app, store, logs } = await setUp();
    await store.suppress(suppression('gone@example.org', 0));
    const owner = await startSession(app, 'jane');
    const withoutToken = await app.inject(formPost('/admin/bounces', { address: 'gone@example.org' }, { cookie: owner.cookie }));
    assert.equal(withoutToken.statusCode, 403);
    const wrongToken = await app.inject(formPost('/admin/bounces', { csrf_token: 'x'.repeat(43), address: 'gone@example.org' }, { cookie: owner.cookie }));
    assert.equal(wrongToken.statusCode, 403);
    assert.equal(await store.isSuppressed('gone@example.org'), true, 'nothing removed without the token');

    const removed = await app.inject(formPost('/admin/bounces', { csrf_token: owner.csrf, address: 'Gone@Example.org' }, { cookie: owner.cookie }));
    assert.equal(removed.statusCode, 303);
    assert.equal(removed.headers.location, '/admin/bounces?notice=removed');
    assert.equal(await store.isSuppressed('gone@example.org'), false);
    const after = await app.inject({ method: 'GET', url: removed.headers.location, headers: { cookie: owner.cookie } });
    assert.match(after.body, /<p class="admin-notice" role="status">The address was taken off the suppression list/);
    assert.match(after.body, /No address is suppressed\./);
    const again = await app.inject(formPost('/admin/bounces', { csrf_token: owner.csrf, address: 'gone@example.org' }, { cookie: owner.cookie }));
    assert.equal(again.headers.location, '/admin/bounces?notice=missing');
    const line = logs.lines().find((entry) => entry.event === 'admin_suppression_removed');
    assert.equal(line?.user, 'jane');
    assert.doesNotMatch(logs.text(), /gone@example\.org/i);
  });

  it('downloads the whole list as CSV, formulas defused', async () => {
    const { app, store } = await setUp();
    await store.suppress(suppression('old@example.org', 0));
    await store.suppress(suppression('=cmd@example.org', 5, { reason: '=HYPERLINK("x")', source: 'mailgun', kind: 'complaint' }));
    const owner = await startSession(app, 'jane');
    const csv = await app.inject({ method: 'GET', url: '/admin/bounces.csv', headers: { cookie: owner.cookie } });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv; charset=utf-8/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="postbox-suppressed.csv"/);
    assert.ok(csv.body.startsWith('\uFEFF'));
    assert.deepEqual(parse(csv.body.slice(1)), [
      ['address', 'kind', 'at', 'reason', 'source'],
      ["'=cmd@example.org", 'complaint', '2024-05-01T12:05:00.000Z', `'=HYPERLINK("x")`, 'mailgun'],
      ['old@example.org', 'hard', '2024-05-01T12:00:00.000Z', '550 5.1.1 <address>: user unknown', 'imap'],
    ]);
  });
});

describe('a campaign that paused itself', () => {
  it('says why on its page and in the list, and "Resume" asks the runner', async () => {
    const { app, campaigns, resumed } = await setUp();
    await pausedCampaign(campaigns);
    const editor = await startSession(app, 'ed');
    const page = await app.inject({ method: 'GET', url: `/admin/campaigns/${CAMPAIGN}`, headers: { cookie: editor.cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /paused itself on <time datetime="2026-11-23T12:05:00Z">23 Nov 2026, 12:05<\/time>: 10 hard bounces for 120 mails sent \(8\.3 %, more than 5 %\)\./);
    assert.match(page.body, /<dd data-progress="state">Paused<\/dd>/);
    assert.match(page.body, new RegExp(`<form method="post" action="/admin/campaigns/${CAMPAIGN}/resume"`));
    assert.doesNotMatch(page.body, /campaign-progress\.js/, 'a paused campaign does not change by itself');
    const list = await app.inject({ method: 'GET', url: '/admin/campaigns', headers: { cookie: editor.cookie } });
    assert.match(list.body, /<td>Paused<\/td>/);
    const progress = await app.inject({ method: 'GET', url: `/admin/campaigns/${CAMPAIGN}/progress`, headers: { cookie: editor.cookie } });
    assert.equal(JSON.parse(progress.body).state, 'paused');

    assert.equal((await app.inject(formPost(`/admin/campaigns/${CAMPAIGN}/resume`, {}, { cookie: editor.cookie }))).statusCode, 403, 'CSRF checked');
    const resume = await app.inject(formPost(`/admin/campaigns/${CAMPAIGN}/resume`, { csrf_token: editor.csrf }, { cookie: editor.cookie }));
    assert.equal(resume.statusCode, 303);
    assert.equal(resume.headers.location, `/admin/campaigns/${CAMPAIGN}?notice=resumed`);
    assert.deepEqual(resumed, [[CAMPAIGN, 'ed']]);
    const unknown = await app.inject(formPost('/admin/campaigns/20261123T120000Z-ffff/resume', { csrf_token: editor.csrf }, { cookie: editor.cookie }));
    assert.equal(unknown.statusCode, 404);
    assert.equal((await app.inject(formPost(`/admin/campaigns/${CAMPAIGN}`, { csrf_token: editor.csrf }, { cookie: editor.cookie }))).statusCode, 404);
  });
});

describe('axe-core on the bounces and paused campaign pages', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  }, { timeout: 60_000 });
  after(async () => {
    await browser?.close();
  });

  it('finds no serious or critical violation', { timeout: 60_000 }, async () => {
    const { app, store, campaigns } = await setUp();
    await store.suppress(suppression('gone@example.org', 0));
    await store.suppress(suppression('spam@example.org', 90, { kind: 'complaint', reason: 'abuse', source: 'ses' }));
    await pausedCampaign(campaigns);
    const owner = await startSession(app, 'jane');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // Every request of the page is answered by the admin's own front door, as the served page would be.
      await page.route('http://admin.test/**', async (route) => {
        const request = route.request();
        const url = new URL(request.url());
        const { 'accept-encoding': _encoding, ...headers } = request.headers();
        const answer = await app.inject({ method: request.method() as 'GET', url: `${url.pathname}${url.search}`, headers: { ...headers, cookie: owner.cookie } });
        await route.fulfill({ status: answer.statusCode, headers: answer.headers as Record<string, string>, body: answer.rawPayload });
      });
      for (const path of ['/admin/bounces', `/admin/campaigns/${CAMPAIGN}`, '/admin/bounces?notice=removed']) {
        await page.goto(`http://admin.test${path}`);
        assert.deepEqual(await seriousViolations(page), [], path);
      }
      await store.remove('gone@example.org');
      await store.remove('spam@example.org');
      await page.goto('http://admin.test/admin/bounces');
      assert.deepEqual(await seriousViolations(page), [], 'the empty list');
    } finally {
      await context.close();
    }
  });
});
