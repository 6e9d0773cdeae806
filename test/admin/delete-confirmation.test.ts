// Deleting asks first (docs/admin.md "Posts", "Subscribers", "Inbox"): a POST to delete a post, an image beside a
// post, a submission or a subscriber answers a page naming what would be deleted (200), and deletes nothing; only
// that page's Delete button, which posts confirm=yes with the CSRF field, deletes. An image's name is only ever a
// file of the post's own folder. Driven through the admin's front door.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createSubscriberPages } from '../../src/admin/dashboard-pages/subscriber-pages.js';
import type { DashboardSources } from '../../src/admin/dashboard-pages/dashboard-sources.js';
import { createInboxPages } from '../../src/admin/inbox-pages/inbox-pages.js';
import { createPostPages } from '../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../src/admin/post-pages/preview.js';
import { createPostFiles, type PostFiles } from '../../src/admin/posts/post-files.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createFileArchiveReader } from '../../src/adapters/files/archive-reader-files.js';
import { createFileSources } from '../../src/adapters/files/dashboard-sources-files.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { readSubscribers } from '../../src/newsletter/index.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTestNewsletter, type TestNewsletter } from '../support/newsletter.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');
const POST = '+++\ntitle = "Harbour notes"\ndate = 2024-05-01\n+++\nBoats.\n';

/** The confirmation page's form: where it posts, and its fields. */
function confirmationForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html.replace(/<header[\s\S]*?<\/header>/, ''));
  assert.ok(form, 'a form on the page');
  const fields = Object.fromEntries([...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1]!, decode(match[2]!)]));
  assert.match(form[2]!, /<button type="submit">Delete<\/button>/);
  return { action: decode(form[1]!), fields };
}

function decode(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[name] ?? '');
}

describe('deleting a post or an image asks first', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let contentDir: string;
  let posts: PostFiles;
  let logs: LogCapture;
  let session: { csrf: string; cookie: string };

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('delete-confirmation'));
    contentDir = path.join(dir, 'posts');
    await mkdir(path.join(contentDir, 'harbour'), { recursive: true });
    await writeFile(path.join(contentDir, 'harbour', 'index.md'), POST);
    await writeFile(path.join(contentDir, 'harbour', 'boat.png'), PNG);
    await writeFile(path.join(contentDir, 'lone.md'), POST.replace('Harbour notes', 'Lone'));
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    logs = captureLogs();
    posts = createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => Date.UTC(2024, 4, 1, 12) });
    const pages = createPostPages({
      posts,
      listVersions: () => [],
      renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 }),
      maxUploadBytes: 1024 * 1024,
      logger: logs.logger,
    });
    app = await startTestAdmin({ dataDir, pages });
    session = await signIn(app);
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const post = (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));
  const trash = async () => readdir(path.join(dir, 'data', 'trash')).catch(() => [] as string[]);

  it('a post: the page names it; only its Delete button (confirm=yes, CSRF) moves it to the trash', async () => {
    const asked = await post('/admin/posts/delete', { file: 'lone.md' });
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /<h1>Delete the post lone\.md\?<\/h1>/);
    assert.match(asked.body, /Lone/);
    assert.deepEqual(await trash(), [], 'nothing deleted yet');
    assert.ok((await readdir(contentDir)).includes('lone.md'));
    const { action, fields } = confirmationForm(asked.body);
    assert.equal(action, '/admin/posts/delete');
    assert.deepEqual(fields, { csrf_token: session.csrf, file: 'lone.md', confirm: 'yes' });

    const withoutToken = await app.inject(formPost(action, { file: 'lone.md', confirm: 'yes' }, { cookie: session.cookie }));
    assert.equal(withoutToken.statusCode, 403);
    const deleted = await app.inject(formPost(action, fields, { cookie: session.cookie }));
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/admin/posts?notice=deleted');
    assert.ok(!(await readdir(contentDir)).includes('lone.md'));
    assert.equal((await trash()).length, 1);
  });

  it('lists a post\'s images with their sizes; an image: the page names it, Delete moves it to the trash', async () => {
    assert.deepEqual(await posts.listPostImages('harbour/index.md'), [{ name: 'boat.png', bytes: PNG.length }]);
    assert.deepEqual(await posts.listPostImages('lone.md'), [], 'a post without a folder has no images');

    const asked = await post('/admin/posts/images/delete', { file: 'harbour/index.md', name: 'boat.png' });
    assert.equal(asked.statusCode, 200, asked.body);
    assert.match(asked.body, /<h1>Delete the image boat\.png\?<\/h1>/);
    assert.match(asked.body, /harbour\/index\.md/);
    assert.deepEqual((await readdir(path.join(contentDir, 'harbour'))).sort(), ['boat.png', 'index.md']);
    const { action, fields } = confirmationForm(asked.body);
    assert.equal(action, '/admin/posts/images/delete');
    assert.deepEqual(fields, { csrf_token: session.csrf, file: 'harbour/index.md', name: 'boat.png', confirm: 'yes' });

    const deleted = await app.inject(formPost(action, fields, { cookie: session.cookie }));
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/admin/posts/edit?file=harbour%2Findex.md&notice=image_deleted');
    assert.deepEqual(await readdir(path.join(contentDir, 'harbour')), ['index.md']);
    assert.match((await trash())[0] ?? '', /harbour__boat\.png$/);
    assert.deepEqual(await readFile(path.join(dir, 'data', 'trash', (await trash())[0]!)), PNG);
    assert.ok(logs.lines().some((line) => line.event === 'admin_post_image_deleted' && line.file === 'harbour/index.md'));
  });

  it('refuses an image name outside the post\'s folder, or that is no image of it, asked or confirmed', async () => {
    await writeFile(path.join(dir, 'outside.png'), PNG);
    await mkdir(path.join(contentDir, 'other'));
    await writeFile(path.join(contentDir, 'other', 'index.md'), POST);
    await writeFile(path.join(contentDir, 'other', 'pic.png'), PNG);
    for (const name of ['../../outside.png', '../other/pic.png', '..%2Fother%2Fpic.png', 'index.md', '../lone.md', '', '.', 'missing.png', '/etc/passwd']) {
      for (const confirm of [{}, { confirm: 'yes' }] as Array<Record<string, string>>) {
        const answer = await post('/admin/posts/images/delete', { file: 'harbour/index.md', name, ...confirm });
        assert.equal(answer.statusCode, 404, `${JSON.stringify(name)} ${JSON.stringify(confirm)}`);
      }
    }
    assert.equal((await post('/admin/posts/images/delete', { file: '../outside.md', name: 'outside.png', confirm: 'yes' })).statusCode, 404);
    assert.deepEqual((await readdir(path.join(contentDir, 'harbour'))).sort(), ['boat.png', 'index.md']);
    assert.deepEqual((await readdir(path.join(contentDir, 'other'))).sort(), ['index.md', 'pic.png']);
    assert.ok((await readdir(dir)).includes('outside.png'));
    assert.deepEqual(await trash(), []);
  });
});

describe('deleting a submission asks first', () => {
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let dataDir: string;
  let session: { csrf: string; cookie: string };
  const line = `${JSON.stringify({ received_at: '2026-01-01T00:00:00Z', form: '/contact', type: 'contact', name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello' })}\n`;

  beforeEach(async () => {
    const temp = await createTempDir('delete-submission');
    remove = temp.remove;
    dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'contact.jsonl'), line);
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
        forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' }],
      },
      dataDir,
    );
    const pages = [...createPlaceholderPages(), ...createInboxPages({ forms: config.forms, archives: createFileArchiveReader(dataDir, createJsonlFiles().exclusive), logger: captureLogs().logger })];
    app = await startTestAdmin({ dataDir, pages });
    session = await signIn(app);
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  it('names the submission by its time and sender; only the page\'s Delete button deletes it', async () => {
    const list = await app.inject({ method: 'GET', url: '/admin/inbox/contact', headers: { cookie: session.cookie } });
    const link = /href="(\/admin\/inbox\/contact\/\d+-[0-9a-f]{12})"/.exec(list.body)?.[1];
    assert.ok(link);
    const asked = await app.inject(formPost(`${link}/delete`, { csrf_token: session.csrf }, { cookie: session.cookie }));
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /<h1>Delete this submission to \/contact\?<\/h1>/);
    assert.match(asked.body, /2026-01-01T00:00:00Z/);
    assert.match(asked.body, /Ada Lovelace/);
    assert.equal(await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8'), line, 'nothing deleted yet');
    const { action, fields } = confirmationForm(asked.body);
    assert.equal(action, `${link}/delete`);
    assert.deepEqual(fields, { csrf_token: session.csrf, confirm: 'yes' });
    const deleted = await app.inject(formPost(action, fields, { cookie: session.cookie }));
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/admin/inbox/contact?notice=deleted');
    assert.equal(await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8'), '');
  });
});

describe('removing a subscriber asks first', () => {
  let news: TestNewsletter;
  let app: TestAdmin;
  let session: { csrf: string; cookie: string };

  before(async () => {
    news = await createTestNewsletter([{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' }]);
    const at = '2026-11-10T08:00:00Z';
    await writeFile(path.join(news.dataDir, 'subscribers.jsonl'), `${JSON.stringify({ event: 'subscribed', email: 'bob@example.org', form: '/newsletter', subscribed_at: at, signed_up_at: at })}\n`);
    await news.restart();
    const sources = { ...createFileSources(news.dataDir), forms: news.config.forms, clock: news.clock, newsletter: () => news.newsletter } as unknown as DashboardSources;
    const pages = [...createSubscriberPages({ sources, readSubscribers: (form) => readSubscribers(news.dataDir, form), logger: captureLogs().logger }), ...createPlaceholderPages()];
    app = await startTestAdmin({ dataDir: news.dataDir, pages });
    session = await signIn(app);
  });
  after(async () => {
    await app?.close();
    await news?.close();
  });

  it('names the address and the list; only the page\'s Delete button removes it', async () => {
    const asked = await app.inject(formPost('/admin/subscribers/newsletter', { csrf_token: session.csrf, email: 'bob@example.org' }, { cookie: session.cookie }));
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /<h1>Remove bob@example\.org from \/newsletter\?<\/h1>/);
    assert.equal(await news.newsletter.isSubscribed(news.form, 'bob@example.org'), true, 'still subscribed');
    const { action, fields } = confirmationForm(asked.body);
    assert.equal(action, '/admin/subscribers/newsletter');
    assert.deepEqual(fields, { csrf_token: session.csrf, email: 'bob@example.org', confirm: 'yes' });
    const removed = await app.inject(formPost(action, fields, { cookie: session.cookie }));
    assert.equal(removed.statusCode, 303);
    assert.equal(removed.headers.location, '/admin/subscribers/newsletter?notice=removed');
    assert.equal(await news.newsletter.isSubscribed(news.form, 'bob@example.org'), false);
  });
});
