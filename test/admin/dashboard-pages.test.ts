// The dashboard, subscribers and failed-mail pages through the admin's own guard (light-my-request), over a temp
// data_dir with a contact archive, a real newsletter (its list in memory and its log), a campaign and the real
// queue files: the chart's numbers are the archive's, Remove goes through the newsletter, the CSV parses back,
// the failed list shows no address and Retry puts the message back, and a POST without the CSRF token changes nothing.
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createDashboardPages } from '../../src/admin/dashboard-pages/dashboard-pages.js';
import { createFileSources } from '../../src/adapters/files/dashboard-sources-files.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createCampaignId } from '../../src/newsletter/campaigns/campaign.js';
import type { NewsletterForm } from '../../src/config/config.js';
import { readSubscribers } from '../../src/newsletter/index.js';
import type { QueueStore } from '../../src/queue/store.js';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createQueueFiles, queueDirOf } from '../../src/adapters/files/queue-files.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTestNewsletter, type TestNewsletter } from '../support/newsletter.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const READERS = ['ann@example.org', 'bob@example.org', '=cmd@example.org'];
const SECRET = 'hidden.person@example.net';

function subscribed(email: string, at: string): string {
  return `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: at, signed_up_at: at })}\n`;
}

function submission(at: string, name: string): string {
  return `${JSON.stringify({ received_at: at, form: '/contact', name, email: SECRET, message: 'Hello' })}\n`;
}

describe('the dashboard, subscribers and failed-mail pages', () => {
  let news: TestNewsletter;
  let app: TestAdmin;
  let pageLogs: LogCapture;
  let queue: QueueStore;
  let session: { csrf: string; cookie: string };
  let form: NewsletterForm;
  let failedId: string;
  let campaignId: string;

  before(async () => {
    news = await createTestNewsletter([
      { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
      { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
    ]);
    const { dataDir } = news;
    form = news.form;
    news.clock.set(NOW);
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), READERS.map((email, index) => subscribed(email, `2026-11-1${index}T08:00:00Z`)).join(''));
    await news.restart();
    assert.equal(await news.newsletter.signup(form, 'dee@example.org'), 'ok');
    const archive = [
      submission('2026-09-01T10:00:00Z', 'long ago'),
      submission('2026-10-24T23:59:59Z', 'a day before the window'),
      submission('2026-10-25T00:00:00Z', 'first day'),
      submission('2026-11-20T08:00:00Z', 'a'),
      submission('2026-11-20T09:00:00Z', 'b'),
      submission('2026-11-20T23:00:00Z', 'c'),
      submission('2026-11-23T11:00:00Z', 'today'),
    ];
    await writeFile(path.join(dataDir, 'contact.jsonl'), archive.join(''));
    campaignId = createCampaignId(NOW - 86_400_000, 'ab12');
    const folder = path.join(campaignsDirOf(dataDir), campaignId);
    await mkdir(folder, { recursive: true });
    const request = { id: campaignId, form: '/newsletter', slug: 'hello', lang: 'en', subject: 'Hello <readers>', post_url: 'https://example.com/hello', created_at: '2026-11-22T12:00:00Z', recipients: 3, resend: false };
    await writeFile(path.join(folder, 'campaign.json'), JSON.stringify(request));
    await appendFile(path.join(folder, 'journal.jsonl'), ['{"started_at":"2026-11-22T12:00:00Z"}', '{"r":0,"s":"sent"}', '{"r":1,"s":"sent"}', '{"r":2,"s":"failed"}', ''].join('\n'));
    queue = createQueueFiles(queueDirOf(dataDir));
    const mail = { from: 'Forms <forms@example.com>', to: SECRET, subject: 'New message', text: `From ${SECRET}`, autoSubmitted: 'auto-generated' as const };
    const [stored] = await queue.add([{ channel: 'mail', form: '/contact', kind: 'owner', mail }], NOW - 7_200_000);
    failedId = stored!.id;
    await queue.fail(stored!.id, { attempts: 5, nextAttemptAt: NOW, lastError: `smtp_550 <${SECRET}>` }, NOW - 3_600_000);
    await queue.close();
    queue = createQueueFiles(queueDirOf(dataDir));

    pageLogs = captureLogs();
    const clock = createTestClock(NOW);
    const sources = {
      ...createFileSources(dataDir),
      forms: news.config.forms,
      clock,
      listVersions: () => [
        { file: 'a.md', slug: 'a', language: 'en', state: 'published' as const },
        { file: 'a.fr.md', slug: 'a', language: 'fr', state: 'published' as const },
        { file: 'c.md', slug: 'c', language: 'en', state: 'published' as const },
        { file: 'c.de.md', slug: 'c', language: 'de', state: 'draft' as const },
        { file: 'd.md', slug: 'd', language: 'en', state: 'scheduled' as const },
        { file: 'b.md', slug: 'b', language: 'en', state: 'broken' as const, reason: 'date is required' },
      ],
      readings: () => ({ snapshot: () => news.metrics.snapshot() }),
      newsletter: () => news.newsletter,
      queue,
      campaigns: createCampaignFiles(campaignsDirOf(dataDir)),
    };
    const pages = [...createDashboardPages(sources, { readSubscribers: (newsletterForm) => readSubscribers(dataDir, newsletterForm), logger: pageLogs.logger }), ...createPlaceholderPages()];
    app = await startTestAdmin({ dataDir, pages, clock });
    session = await signIn(app);
  });

  after(async () => {
    await app?.close();
    await queue?.close();
    await news?.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

  it('/admin charts the archive: the numbers of the last 30 days, by UTC day', async () => {
    const page = await get('/admin');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Dashboard<\/h1>/);
    assert.match(page.body, /<a href="\/admin" aria-current="page">Dashboard<\/a>/);
    assert.match(page.body, /5 submissions in 30 days, most on 2026-11-20 \(3\)/);
    const rows = [...page.body.matchAll(/<tr><td>(\d{4}-\d\d-\d\d)<\/td><td>(\d+)<\/td><\/tr>/g)];
    const submissions = new Map(rows.slice(0, 30).map((row) => [row[1], Number(row[2])]));
    assert.equal(submissions.size, 30);
    assert.equal(submissions.get('2026-10-25'), 1);
    assert.equal(submissions.get('2026-11-20'), 3);
    assert.equal(submissions.get('2026-11-23'), 1);
    assert.equal([...submissions.values()].reduce((sum, count) => sum + count, 0), 5);
    assert.equal(submissions.has('2026-10-24'), false);
    // The subscribers' step chart: three on the list since 2026-11-12.
    assert.match(page.body, /3 subscribers on 2026-11-23, 0 on 2026-10-25 \(up 3\)/);
    // Tiles: the posts the API lists (a translation is the same post), drafts, scheduled, broken, 1 failed mail.
    assert.match(page.body, /<a href="\/admin\/posts"><span class="admin-tile-value">2<\/span> <span class="admin-tile-label">published posts<\/span>/);
    assert.match(page.body, /<span class="admin-tile-value">1<\/span> <span class="admin-tile-label">draft<\/span>/);
    assert.match(page.body, /<span class="admin-tile-value">1<\/span> <span class="admin-tile-label">scheduled post<\/span>/);
    assert.match(page.body, /admin-tile-alarm"><a href="\/admin\/posts"><span class="admin-tile-value">1<\/span> <span class="admin-tile-label">broken post</);
    assert.match(page.body, /<a href="\/admin\/failed"><span class="admin-tile-value">1<\/span> <span class="admin-tile-label">failed mail</);
    assert.match(page.body, /<th scope="row">\/newsletter<\/th>/);
    assert.doesNotMatch(page.body, new RegExp(SECRET.replace(/\./g, '\\.')));
  });

  it('lists a newsletter\'s subscribers with the pending count and its campaigns', async () => {
    const overview = await get('/admin/subscribers');
    assert.match(overview.body, /<a href="\/admin\/subscribers\/newsletter">\/newsletter<\/a><\/td><td>3<\/td><td>1<\/td>/);
    const page = await get('/admin/subscribers/newsletter');
    assert.equal(page.statusCode, 200);
    for (const email of READERS) assert.match(page.body, new RegExp(`<td>${email}</td>`));
    assert.match(page.body, /<span class="admin-tile-value">1<\/span> <span class="admin-tile-label">pending/);
    assert.match(page.body, new RegExp(`<a href="/admin/campaigns/${campaignId}">Hello &lt;readers></a></td><td><time datetime="2026-11-22T12:00:00Z">22 Nov 2026</time></td><td>3</td><td>2</td><td>1</td><td>0</td>`));
    assert.equal((await get('/admin/subscribers/contact')).statusCode, 404);
  });

  it('exports the list as CSV that a CSV parser reads back, formula cells neutralised', async () => {
    const response = await get('/admin/subscribers/newsletter?export=csv');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/csv; charset=utf-8/);
    assert.match(String(response.headers['content-disposition']), /attachment; filename="subscribers-newsletter.csv"/);
    const records = parse(response.body, { columns: true }) as Array<{ email: string; subscribed_at: string }>;
    assert.deepEqual(
      records.map((record) => record.email),
      ['ann@example.org', 'bob@example.org', "'=cmd@example.org"],
    );
    assert.equal(records[0]!.subscribed_at, '2026-11-10T08:00:00Z');
    assert.ok(pageLogs.lines().some((line) => line.event === 'admin_subscribers_exported' && line.form === '/newsletter'));
  });

  it('refuses a POST without the CSRF token and removes nobody', async () => {
    const response = await app.inject(formPost('/admin/subscribers/newsletter', { email: 'ann@example.org' }, { cookie: session.cookie }));
    assert.equal(response.statusCode, 403);
    assert.equal(await news.newsletter.isSubscribed(form, 'ann@example.org'), true);
    const retry = await app.inject(formPost('/admin/failed', { id: failedId }, { cookie: session.cookie }));
    assert.equal(retry.statusCode, 403);
    assert.equal((await queue.listFailed()).length, 1);
  });

  it('removes a subscriber through the newsletter: the list in memory, the log and the page agree', async () => {
    const asked = await app.inject(formPost('/admin/subscribers/newsletter', { csrf_token: session.csrf, email: 'bob@example.org' }, { cookie: session.cookie }));
    assert.equal(asked.statusCode, 200, 'a removal asks first');
    assert.equal(await news.newsletter.isSubscribed(form, 'bob@example.org'), true);
    const response = await app.inject(formPost('/admin/subscribers/newsletter', { csrf_token: session.csrf, email: 'bob@example.org', confirm: 'yes' }, { cookie: session.cookie }));
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/admin/subscribers/newsletter?notice=removed');
    assert.equal(await news.newsletter.isSubscribed(form, 'bob@example.org'), false);
    const log = (await readFile(path.join(news.dataDir, 'subscribers.jsonl'), 'utf8')).trim().split('\n');
    assert.deepEqual(JSON.parse(log.at(-1)!), { event: 'unsubscribed', email: 'bob@example.org', form: '/newsletter', at: new Date(news.clock()).toISOString() });
    assert.deepEqual((await readSubscribers(news.dataDir, form)).map((subscriber) => subscriber.email), ['ann@example.org', '=cmd@example.org']);
    const page = await get(response.headers.location as string);
    assert.match(page.body, /The subscriber was removed/);
    assert.doesNotMatch(page.body, /<td>bob@example\.org<\/td>/);
    assert.match(page.body, /1 unsubscribe in 30 days, most on 2026-11-23 \(1\)/);
    const logged = pageLogs.lines().find((line) => line.event === 'admin_subscriber_removed');
    assert.deepEqual(logged && { event: logged.event, user: logged.user, form: logged.form }, { event: 'admin_subscriber_removed', user: 'jane', form: '/newsletter' });
    assert.doesNotMatch(pageLogs.text(), /bob@example\.org/);
    assert.doesNotMatch(news.logs.text(), /bob@example\.org/);
  });

  it('lists failed mail without any address, and Retry puts the message back in the queue', async () => {
    const page = await get('/admin/failed');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<code>${failedId}</code></td><td>mail/owner</td><td>/contact</td><td><time datetime="2026-11-23T11:00:00Z">23 Nov 2026, 11:00</time> \\(60 min ago\\)</td><td>5</td><td><code>smtp_550 &lt;\\[address]></code>`));
    assert.doesNotMatch(page.body, /@/);
    const response = await app.inject(formPost('/admin/failed', { csrf_token: session.csrf, id: failedId }, { cookie: session.cookie }));
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/admin/failed?notice=retried');
    assert.deepEqual(await queue.listFailed(), []);
    assert.deepEqual((await queue.listPending()).map((message) => message.id), [failedId]);
    assert.ok(pageLogs.lines().some((line) => line.event === 'admin_mail_retried' && line.id === failedId && line.user === 'jane'));
    const again = await app.inject(formPost('/admin/failed', { csrf_token: session.csrf, id: failedId }, { cookie: session.cookie }));
    assert.equal(again.headers.location, '/admin/failed?notice=missing');
    assert.match((await get('/admin/failed')).body, /No failed mail/);
  });
});
