// "Send to subscribers" and the campaign pages of /admin over a temp data_dir, through the admin's own guard
// (light-my-request): the link only for published versions, a test send with the list headers, the confirmation's
// count, CSRF, exactly one campaign per post and form, hostile titles escaped, and counts read from the journal.
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createCampaignPages } from '../../src/admin/campaign-pages/campaign-pages.js';
import { adminAssetPath } from '../../src/admin/admin-assets.js';
import { createSendPages } from '../../src/admin/campaign-pages/send-pages.js';
import type { VersionListing } from '../../src/admin/post-pages/post-listing.js';
import { createPostPages } from '../../src/admin/post-pages/post-pages.js';
import { createPostFiles } from '../../src/admin/posts/post-files.js';
import type { PublishedPost } from '../../src/blog/published-post.js';
import { isCampaignId, type CampaignRequest } from '../../src/newsletter/campaigns/campaign.js';
import { sendCampaignTest } from '../../src/app/campaign-test-send.js';
import { readSubscribers } from '../../src/newsletter/index.js';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { captureLogs } from '../support/log-capture.js';
import { loadNewsletterConfig } from '../support/newsletter.js';
import { createRecordingMailer, type RecordingMailer } from '../support/recording-mailer.js';
import { createTempDir } from '../support/temp-dir.js';
import { createTestClock } from '../support/clock.js';
import { formPost, PASSWORD, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const READERS = ['ann@example.org', 'bob@example.org', 'cy@example.org'];

function subscribedLine(email: string, form = '/newsletter'): string {
  return `${JSON.stringify({ event: 'subscribed', email, form, subscribed_at: '2024-01-01T00:00:00Z', signed_up_at: '2024-01-01T00:00:00Z' })}\n`;
}

describe('the send and campaign pages', () => {
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let dataDir: string;
  let session: { csrf: string; cookie: string };
  let mailer: RecordingMailer;
  let wakes: number;
  let posts: Map<string, PublishedPost>;
  let listing: VersionListing[];

  /** How far the send pages' clock is past the sign-in. */
  let later = 0;
  beforeEach(async () => {
    later = 0;
    const temp = await createTempDir('campaign-pages');
    remove = temp.remove;
    dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    await mkdir(path.join(temp.dir, 'posts'));
    const config = loadNewsletterConfig(dataDir, [
      { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
      { path: '/letters', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'letters.jsonl' },
    ], { newsletter: { lists: [{ id: 'weekly', name: 'The weekly' }] } });
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), READERS.map((email) => subscribedLine(email)).join(''));
    await writeFile(path.join(dataDir, 'newsletter-list-weekly-subscribers.jsonl'), subscribedLine('weekly@example.org', 'weekly'));
    mailer = createRecordingMailer();
    wakes = 0;
    posts = new Map([['hello/en', { slug: 'hello', lang: 'en', title: 'Hello', url: 'https://example.com/blog/hello', html: '<p>First words.</p>', date: '2024-05-01T00:00:00Z' }]]);
    listing = [
      { file: 'hello.md', slug: 'hello', language: 'en', title: 'Hello', date: '2024-05-01', state: 'published' },
      { file: 'hello.fr.md', slug: 'hello', language: 'fr', title: 'Bonjour', date: '2024-05-01', state: 'draft' },
      { file: 'later.md', slug: 'later', language: 'en', title: 'Later', date: '2030-01-01', state: 'scheduled' },
    ];
    const logger = captureLogs().logger;
    const store = createCampaignFiles(campaignsDirOf(dataDir));
    let counter = 0;
    const mail = config.mail!;
    const pages = [
      ...createPostPages({
        posts: createPostFiles({ contentDir: path.join(temp.dir, 'posts'), trashDir: path.join(dataDir, 'trash'), clock: () => 0 }),
        listVersions: () => listing,
        renderPreview: () => '',
        maxUploadBytes: 1024,
        sending: 'ready',
        logger,
      }),
      ...createSendPages({
        sources: {
          lists: config.newsletter.lists,
          findPost: (slug, lang) => posts.get(`${slug}/${lang ?? 'en'}`),
          readSubscribers: (form) => readSubscribers(dataDir, form),
          store,
          site: { title: 'Example', baseUrl: 'https://example.com' },
        },
        sendTest: (plan, address) =>
          sendCampaignTest(
            {
              from: mail.from,
              publicUrl: config.server.public_url,
              forms: config.forms,
              preferencesUrl: config.newsletter.preferences_url,
              siteTitle: 'Example',
              loadSecret: async () => Buffer.alloc(32, 7),
              sendNow: async (message) => {
                await mailer.send(message);
                return { ok: true, report: 'accepted' };
              },
            },
            plan,
            address,
          ),
        wakeRunner: () => {
          wakes += 1;
        },
        clock: () => Date.UTC(2024, 4, 2, 10, 0, counter) + later,
        randomHex: () => (counter++).toString(16).padStart(4, '0'),
        logger,
        verifyPassword: async (_user, password) => password === PASSWORD,
        confirmSession: async () => undefined,
        passwordAttempts: createSignInThrottle(),
      }),
      ...createCampaignPages({ store }),
    ];
    // The admin's clock is the send pages': the password is asked again 15 minutes after sign-in on it.
    app = await startTestAdmin({ dataDir, pages, clock: createTestClock(Date.UTC(2024, 4, 2, 10, 0, 0)) });
    session = await signIn(app);
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
  const post = (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));
  const campaignIds = async () => (await readdir(campaignsDirOf(dataDir)).catch(() => [] as string[])).filter(isCampaignId);
  const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

  it('links "Send to subscribers" only for published versions', async () => {
    const page = await get('/admin/posts');
    const links = [...page.body.matchAll(/href="(\/admin\/newsletter\/send\?[^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    assert.deepEqual(links, ['/admin/newsletter/send?post=hello&lang=en']);
    assert.match(page.body, /aria-current="page"[^>]*>Posts<\/a>/);
    assert.match(page.body, /href="\/admin\/campaigns">Campaigns<\/a>/);
  });

  it('shows the post, each form with its subscribers, and sends a test with the list headers now', async () => {
    const page = await get('/admin/newsletter/send?post=hello&lang=en');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<select id="send-form" name="form">/);
    assert.match(text(page.body), /\/newsletter \(3 subscribers\)/);
    assert.match(text(page.body), /\/letters \(0 subscribers\)/);
    assert.match(text(page.body), /not sent to \/newsletter in this language yet/);

    const sent = await post('/admin/newsletter/test', { post: 'hello', lang: 'en', form: '/newsletter', address: 'me@example.net' });
    assert.equal(sent.statusCode, 303);
    const location = sent.headers.location as string;
    assert.match(location, /^\/admin\/newsletter\/send\?post=hello&lang=en&form=%2Fnewsletter&test=[0-9a-f]+$/);
    assert.equal(mailer.sent.length, 1);
    const [mail] = mailer.sent;
    assert.equal(mail!.to, 'me@example.net');
    assert.equal(mail!.subject, 'Hello');
    assert.equal(mail!.precedence, 'bulk');
    assert.match(mail!.list!.unsubscribeUrl, /^https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=/);
    assert.ok(mail!.list!.id, 'List-Id');
    assert.match(mail!.text ?? '', /First words\./);

    const after = await get(location);
    assert.match(text(after.body), /Test sent to me@example\.net\./);
    // The key is the sender's: another person (or a forged link) sees no notice.
    const other = await get(location.replace(/test=[0-9a-f]+$/, 'test=ffff'));
    assert.doesNotMatch(text(other.body), /Test sent/);

    const bad = await post('/admin/newsletter/test', { post: 'hello', lang: 'en', form: '/newsletter', address: 'not an address' });
    assert.equal(bad.statusCode, 422);
    assert.equal(mailer.sent.length, 1);
  });

  it('sends to a list without a form: offered by its id, its test mail unsubscribing on the preference page, its campaign created', async () => {
    const page = await get('/admin/newsletter/send?post=hello&lang=en');
    assert.match(text(page.body), /weekly \(1 subscribers\)/);
    const sent = await post('/admin/newsletter/test', { post: 'hello', lang: 'en', form: 'weekly', address: 'me@example.net' });
    assert.equal(sent.statusCode, 303);
    assert.match(mailer.sent.at(-1)!.list!.unsubscribeUrl, /^https:\/\/forms\.example\.com\/newsletter\/preferences\?token=[^&]+&list=weekly$/);
    const confirm = await get('/admin/newsletter/confirm?post=hello&lang=en&form=weekly');
    assert.match(text(confirm.body), /to 1 subscribers? of weekly\?/);
    const started = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: 'weekly' });
    assert.equal(started.statusCode, 303);
    const [campaign] = await createCampaignFiles(campaignsDirOf(dataDir)).list();
    assert.equal(campaign?.form, 'weekly');
    assert.deepEqual(await createCampaignFiles(campaignsDirOf(dataDir)).readRecipients(campaign!.id), ['weekly@example.org']);
  });

  it('asks for the password again before sending when the sign-in is more than 15 minutes old', async () => {
    later = 16 * 60_000;
    const asked = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter' });
    assert.equal(asked.statusCode, 200);
    assert.match(text(asked.body), /Confirm your password/);
    assert.deepEqual(await campaignIds(), [], 'nothing sent before the password');
    const wrong = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter', password: 'not the password' });
    assert.equal(wrong.statusCode, 403);
    assert.deepEqual(await campaignIds(), []);
    const right = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter', password: PASSWORD });
    assert.equal(right.statusCode, 303);
    assert.equal((await campaignIds()).length, 1);
  });

  it('confirms with the number of subscribers, refuses without a CSRF token, and creates exactly one campaign', async () => {
    const confirm = await get('/admin/newsletter/confirm?post=hello&lang=en&form=%2Fnewsletter');
    assert.equal(confirm.statusCode, 200);
    assert.match(text(confirm.body), /Send "Hello" \(en\) to 3 subscribers of \/newsletter\?/);
    assert.doesNotMatch(confirm.body, /name="resend"/, 'no "send again" before a first send');

    const forged = await app.inject(formPost('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter' }, { cookie: session.cookie }));
    assert.equal(forged.statusCode, 403);
    assert.deepEqual(await campaignIds(), []);

    const started = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter' });
    assert.equal(started.statusCode, 303);
    const ids = await campaignIds();
    assert.equal(ids.length, 1);
    assert.equal(started.headers.location, `/admin/campaigns/${ids[0]}`);
    assert.equal(wakes, 1, 'the runner is woken');

    const store = createCampaignFiles(campaignsDirOf(dataDir));
    const whileSending = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter', resend: 'on' });
    assert.equal(whileSending.statusCode, 409);
    assert.match(text(whileSending.body), /still sending this post to \/newsletter/);

    await store.append(ids[0]!, { finished_at: '2024-05-02T10:01:00Z' });
    const again = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter' });
    assert.equal(again.statusCode, 409);
    assert.match(text(again.body), /Already sent/);
    assert.match(text(again.body), new RegExp(`sent to /newsletter in en already \\(campaign ${ids[0]}\\)`));
    assert.equal((await campaignIds()).length, 1);

    const confirmAgain = await get('/admin/newsletter/confirm?post=hello&lang=en&form=%2Fnewsletter');
    assert.match(confirmAgain.body, /name="resend"/);
    assert.equal((await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter', resend: 'on' })).statusCode, 303);
    assert.equal((await campaignIds()).length, 2);
  });

  it('answers refusals with pages: no subscribers, no such post, no such form', async () => {
    const empty = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/letters' });
    assert.equal(empty.statusCode, 422);
    assert.match(text(empty.body), /\/letters has no confirmed subscribers/);
    assert.equal((await get('/admin/newsletter/send?post=hello&lang=fr')).statusCode, 404, 'a draft version is not sent');
    assert.equal((await get('/admin/newsletter/confirm?post=nothing&lang=en')).statusCode, 404);
    assert.equal((await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/contact' })).statusCode, 404);
    assert.deepEqual(await campaignIds(), []);
  });

  it('escapes a hostile title on every page', async () => {
    const hostile = '<script>alert(1)</script>';
    posts.set('hello/en', { ...posts.get('hello/en')!, title: hostile });
    const pages = [await get('/admin/newsletter/send?post=hello&lang=en'), await get('/admin/newsletter/confirm?post=hello&lang=en')];
    const started = await post('/admin/newsletter/start', { post: 'hello', lang: 'en', form: '/newsletter' });
    pages.push(await get(started.headers.location as string), await get('/admin/campaigns'));
    for (const page of pages) {
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /<script>alert/);
      assert.match(page.body, /&lt;script>alert\(1\)&lt;\/script>|&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    }
  });

  it('shows a campaign with the counts of its journal, a Refresh link and the script until it is finished; an unknown id is 404', async () => {
    const store = createCampaignFiles(campaignsDirOf(dataDir));
    const request: CampaignRequest = {
      id: '20240502T100000Z-beef',
      form: '/newsletter',
      slug: 'hello',
      lang: 'en',
      subject: 'Hello',
      post_url: 'https://example.com/blog/hello',
      created_at: '2024-05-02T10:00:00.000Z',
      recipients: 5,
      resend: false,
    };
    const pageUrl = `/admin/campaigns/${request.id}`;
    const script = `<script src="${adminAssetPath('campaign-progress.js')}" defer></script>`;
    await store.create(request, { subject: 'Hello', html: '<p>x</p>', text: 'x' } as never, ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org', 'e@x.org']);
    const waiting = await get(pageUrl);
    assert.match(text(waiting.body), /Waiting for the service to start it/);
    assert.ok(waiting.body.includes(script));
    assert.deepEqual(JSON.parse((await get(`${pageUrl}/progress`)).body), { state: 'waiting', sent: 0, failed: 0, skipped: 0, total: 5 });

    for (const line of [{ started_at: '2024-05-02T10:00:01Z' }, { r: 0, s: 'sent' }, { r: 1, s: 'failed' }, { r: 2, s: 'skipped' }, { r: 3, s: 'sent' }] as const) {
      await store.append(request.id, line);
    }
    const sending = await get(pageUrl);
    assert.equal(sending.statusCode, 200);
    assert.doesNotMatch(sending.body, /http-equiv/);
    assert.match(sending.body, /<label for="campaign-progress">Progress<\/label>/);
    assert.match(sending.body, /<progress id="campaign-progress" max="5" value="4" data-progress="bar">/);
    assert.match(text(sending.body), /2\s*1\s*1\s*5/);
    assert.match(sending.body, /data-progress-url="\/admin\/campaigns\/20240502T100000Z-beef\/progress"/);
    assert.match(sending.body, /<p role="status" aria-live="polite" aria-atomic="true" data-progress="summary">Sending: 4 of 5 done \(2 sent, 1 failed, 1 skipped\)\.<\/p>/);
    assert.match(sending.body, new RegExp(`<a href="${pageUrl}">Refresh</a>`));
    assert.ok(sending.body.includes(script));
    assert.equal((sending.body.match(/<script/g) ?? []).length, 1);
    assert.doesNotMatch(sending.body, /<script(?![^>]*\ssrc=)/, 'no inline script');

    const progress = await get(`${pageUrl}/progress`);
    assert.equal(progress.statusCode, 200);
    assert.equal(progress.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(progress.headers['cache-control'], 'no-store');
    assert.deepEqual(JSON.parse(progress.body), { state: 'sending', sent: 2, failed: 1, skipped: 1, total: 5 });
    const head = await app.inject({ method: 'HEAD', url: `${pageUrl}/progress`, headers: { cookie: session.cookie } });
    assert.equal(head.statusCode, 200);
    const signedOut = await app.inject({ method: 'GET', url: `${pageUrl}/progress` });
    assert.equal(signedOut.statusCode, 303, 'behind the same guard as the page');
    assert.match(signedOut.headers.location as string, /^\/admin\/login\?next=/);

    const list = await get('/admin/campaigns');
    assert.match(list.body, /aria-current="page"[^>]*>Campaigns<\/a>/);
    assert.match(text(list.body), /Hello\s*en\s*\/newsletter\s*2 May 2024, 10:00\s*Sending\s*2\s*1\s*1\s*5/);
    assert.doesNotMatch(list.body, /<script/);

    await store.append(request.id, { r: 4, s: 'sent' });
    await store.append(request.id, { finished_at: '2024-05-02T10:00:09Z' });
    const finished = await get(pageUrl);
    assert.doesNotMatch(finished.body, /http-equiv|<script|data-progress-url|>Refresh</);
    assert.match(finished.body, /<tr><td>3<\/td><td>1<\/td><td>1<\/td><td>5<\/td><\/tr>/);
    assert.match(text(finished.body), /Finished/);
    assert.deepEqual(JSON.parse((await get(`${pageUrl}/progress`)).body), { state: 'finished', sent: 3, failed: 1, skipped: 1, total: 5 });

    for (const url of ['/admin/campaigns/20991231T000000Z-0000', '/admin/campaigns/..%2F..%2Fetc', '/admin/campaigns/nope']) {
      for (const address of [url, `${url}/progress`]) {
        const answer = await get(address);
        assert.equal(answer.statusCode, 404, address);
        assert.match(answer.headers['content-type'] as string, /^text\/html/, address);
      }
    }
    for (const url of [`${pageUrl}/progress/`, `${pageUrl}/other`, `${pageUrl}/progress/progress`, '/admin/campaigns//progress', '/admin/campaigns/progress']) {
      assert.equal((await get(url)).statusCode, 404, url);
    }
  });

  it('serves the progress script like the stylesheet', async () => {
    const script = await app.inject({ method: 'GET', url: adminAssetPath('campaign-progress.js') });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
    assert.match(script.body, /data-progress-url/);
    assert.doesNotThrow(() => new Function(script.body), 'the script parses');
    assert.equal((await app.inject({ method: 'POST', url: adminAssetPath('campaign-progress.js') })).statusCode, 405);
    const stylesheet = await app.inject({ method: 'GET', url: adminAssetPath('admin.css') });
    assert.equal(stylesheet.headers['cache-control'], script.headers['cache-control']);
    assert.notEqual(stylesheet.headers.etag, script.headers.etag);
  });
});
