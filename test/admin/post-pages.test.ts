// The posts pages of /admin over a temp content folder, through the admin's own guard (light-my-request): what
// each page shows, what each POST writes, and what an attacker's input does (a title holding <script>, a slug
// with "..", an upload named ../../x.png or holding HTML, a save over a file changed meanwhile, no CSRF token).
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostPages } from '../../src/admin/post-pages/post-pages.js';
import type { VersionListing } from '../../src/admin/post-pages/post-listing.js';
import { createPreviewRenderer } from '../../src/admin/post-pages/preview.js';
import { createPostFiles } from '../../src/admin/posts/post-files.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');
const HELLO = '+++\ntitle = "Hello"\ndate = 2024-05-01\n# kept\nmood = "sunny"\n+++\nFirst words.\n';

describe('the posts pages', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let contentDir: string;
  let listing: VersionListing[];
  let session: { csrf: string; cookie: string };
  let logs: LogCapture;

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('post-pages'));
    contentDir = path.join(dir, 'posts');
    await mkdir(contentDir);
    await writeFile(path.join(contentDir, 'hello.md'), HELLO);
    listing = [];
    logs = captureLogs();
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    const pages = createPostPages({
      posts: createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => Date.UTC(2024, 4, 1, 12) }),
      listVersions: () => listing,
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
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
  const editor = async (file: string) => {
    const page = await get(`/admin/posts/edit?file=${encodeURIComponent(file)}`);
    const value = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1];
    return { page, version: value('version') ?? '', baseText: decodeEntities(value('base_text') ?? '') };
  };

  it('lists every version with its state and reason, escaping whatever a title holds', async () => {
    listing = [
      { file: 'hello.md', slug: 'hello', language: 'en', title: '<script>alert(1)</script>', date: '2024-05-01', state: 'published' },
      { file: 'broken.md', slug: 'broken', language: 'en', state: 'broken', reason: 'date is required' },
      { file: 'later.md', slug: 'later', language: 'en', title: 'Later', date: '2030-01-01', state: 'scheduled' },
    ];
    const page = await get('/admin/posts');
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /<script>alert/);
    assert.match(page.body, /&lt;script>alert\(1\)&lt;\/script>|&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(page.body, /<span class="admin-badge admin-badge-broken">Broken<\/span><span class="admin-reason"> date is required<\/span>/);
    assert.match(page.body, /Scheduled/);
    assert.match(page.body, /href="\/admin\/posts\/edit\?file=hello\.md"/);
  });

  it('creates a new post as TOML front matter in <slug>.md, and refuses a slug with ".."', async () => {
    const refused = await post('/admin/posts/new', { title: 'Trip', slug: '../escape', date: '2024-05-02', body: 'x', draft: 'on' });
    assert.equal(refused.statusCode, 422);
    assert.deepEqual((await readdir(contentDir)).sort(), ['hello.md']);
    assert.deepEqual(await readdir(dir), ['data', 'posts'].sort(), 'nothing written outside content_dir');

    const created = await post('/admin/posts/new', { title: 'Trip', slug: 'trip', date: '2024-05-02', tags: 'sea, boats', body: 'Off we go.', draft: 'on' });
    assert.equal(created.statusCode, 303);
    assert.equal(created.headers.location, '/admin/posts/edit?file=trip.md&notice=created');
    const text = await readFile(path.join(contentDir, 'trip.md'), 'utf8');
    assert.match(text, /^\+\+\+\n/);
    assert.match(text, /title = "Trip"/);
    assert.match(text, /draft = true/);
    assert.match(text, /Off we go\./);
    assert.ok(logs.lines().some((line) => line.event === 'admin_post_created' && line.user === 'jane' && line.file === 'trip.md'));
  });

  it('reads a date and time typed or picked without an offset in the admin\u2019s time zone, and writes it with the offset', async () => {
    await app.close();
    app = await startTestAdmin({ dataDir: path.join(dir, 'data'), pages: createPostPages({
      posts: createPostFiles({ contentDir, trashDir: path.join(dir, 'data', 'trash'), clock: () => Date.UTC(2024, 4, 1, 12) }),
      listVersions: () => listing,
      renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 }),
      maxUploadBytes: 1024 * 1024,
      logger: logs.logger,
    }), timeZone: 'Europe/Berlin' });
    session = await signIn(app);
    const form = await get('/admin/posts/new');
    assert.match(form.body, /<label for="field-date-pick">Or pick a date and time \(Europe\/Berlin\)<\/label><input type="datetime-local" id="field-date-pick" name="date_pick"/);
    const typed = await post('/admin/posts/new', { title: 'Winter', slug: 'winter', date: '2026-12-01 09:30', body: 'Cold.', draft: 'on' });
    assert.equal(typed.statusCode, 303, typed.body);
    assert.match(await readFile(path.join(contentDir, 'winter.md'), 'utf8'), /^date = 2026-12-01T09:30:00\+01:00$/m);
    const picked = await post('/admin/posts/new', { title: 'Summer', slug: 'summer', date: '', date_pick: '2026-07-01T09:30', body: 'Warm.', draft: 'on' });
    assert.equal(picked.statusCode, 303, picked.body);
    assert.match(await readFile(path.join(contentDir, 'summer.md'), 'utf8'), /^date = 2026-07-01T09:30:00\+02:00$/m, 'summer time');
  });

  it('a Publish that fails on a field problem shows the post still as a draft, with Publish, not Unpublish', async () => {
    await post('/admin/posts/new', { title: 'Trip', slug: 'trip', date: '2024-05-02', body: 'Off we go.', draft: 'on' });
    const opened = await editor('trip.md');
    const failed = await post('/admin/posts/publish', { file: 'trip.md', version: opened.version, base_text: opened.baseText, title: 'Trip', date: 'soon', body: 'Off we go.', draft: 'on' });
    assert.equal(failed.statusCode, 422);
    assert.match(failed.body, /date must be/);
    assert.match(failed.body, /<button type="submit" formaction="\/admin\/posts\/publish">Publish<\/button>/);
    assert.doesNotMatch(failed.body, /Unpublish/);
    assert.match(failed.body, /<input type="checkbox" id="field-draft" name="draft" checked/);
    assert.match(await readFile(path.join(contentDir, 'trip.md'), 'utf8'), /draft = true/);
  });

  it('saves only what changed, and refuses with 409 and both versions when the file changed meanwhile', async () => {
    const opened = await editor('hello.md');
    assert.equal(opened.page.statusCode, 200);
    const saved = await post('/admin/posts/save', { file: 'hello.md', version: opened.version, base_text: opened.baseText, title: 'Hello again', date: '2024-05-01', body: 'First words.\n' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(await readFile(path.join(contentDir, 'hello.md'), 'utf8'), HELLO.replace('title = "Hello"', 'title = "Hello again"'));

    const stale = await editor('hello.md');
    // Changed on disk in the same line as this save (the title): an overlap, which no merge settles.
    const onDisk = HELLO.replace('First words.', 'Changed on disk.').replace('title = "Hello"', 'title = "Theirs"');
    await writeFile(path.join(contentDir, 'hello.md'), onDisk);
    const conflict = await post('/admin/posts/save', { file: 'hello.md', version: stale.version, base_text: stale.baseText, title: 'Mine', date: '2024-05-01', body: 'First words.\n' });
    assert.equal(conflict.statusCode, 409);
    assert.match(conflict.body, /The version on disk now/);
    assert.match(conflict.body, /Changed on disk\./);
    assert.match(conflict.body, /title = &quot;Mine&quot;|title = "Mine"/);
    assert.equal(await readFile(path.join(contentDir, 'hello.md'), 'utf8'), onDisk, 'nothing overwritten');
  });

  it('changes nothing without the CSRF token', async () => {
    const opened = await editor('hello.md');
    const response = await app.inject(formPost('/admin/posts/save', { file: 'hello.md', version: opened.version, title: 'Evil', date: '2024-05-01', body: 'x' }, { cookie: session.cookie }));
    assert.equal(response.statusCode, 403);
    assert.equal(await readFile(path.join(contentDir, 'hello.md'), 'utf8'), HELLO);
  });

  it('stores an upload named ../../x.png beside the post as x.png, and refuses HTML named like an image', async () => {
    const opened = await editor('hello.md');
    const upload = (name: string, bytes: Buffer) => {
      const boundary = 'postbox-test-boundary';
      const parts = [
        ['csrf_token', session.csrf],
        ['file', 'hello.md'],
        ['version', opened.version],
      ].map(([field, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`);
      const payload = Buffer.concat([
        Buffer.from(parts.join('')),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return app.inject({ method: 'POST', url: '/admin/posts/upload', payload, headers: { cookie: session.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    };
    const html = await upload('y.png', Buffer.from('<html><script>alert(1)</script></html>'));
    assert.equal(html.statusCode, 415);
    assert.deepEqual((await readdir(contentDir)).sort(), ['hello.md'], 'nothing stored, the post not moved');

    const stored = await upload('../../x.png', PNG);
    assert.equal(stored.statusCode, 303, stored.body);
    assert.equal(stored.headers.location, '/admin/posts/edit?file=hello%2Findex.md&notice=image&image=x.png');
    assert.deepEqual((await readdir(path.join(contentDir, 'hello'))).sort(), ['index.md', 'x.png']);
    assert.deepEqual(await readdir(dir), ['data', 'posts'].sort());
  });

  it('previews in a sandboxed frame: the post\'s script is text of the frame, images beside it are inlined', async () => {
    await mkdir(path.join(contentDir, 'boat'));
    await writeFile(path.join(contentDir, 'boat', 'index.md'), '+++\ntitle = "Boat"\ndate = 2024-05-01\n+++\nx\n');
    await writeFile(path.join(contentDir, 'boat', 'pic.png'), PNG);
    const response = await post('/admin/posts/preview', { file: 'boat/index.md', title: 'Boat', date: '2024-05-01', body: '![A boat](pic.png)\n\n<script>alert(1)</script>' });
    assert.equal(response.statusCode, 200);
    const frame = /<iframe[\s\S]*?<\/iframe>/.exec(response.body)?.[0] ?? '';
    assert.match(frame, / sandbox(="")?[ >]/, "sandboxed with no permission: no script runs");
    assert.match(frame, /srcdoc="[^"]*data:image\/png;base64,/);
    assert.doesNotMatch(frame, /<script/, 'the script is escaped text of srcdoc');
    assert.doesNotMatch(response.body.replace(frame, ''), /<script>alert/, 'no live script outside the frame');
    assert.match(response.body, /<code>pic\.png<\/code>/, 'the Images panel lists the image the preview shows');
    assert.doesNotMatch(response.body, /No images beside the post yet/);
  });

  it('never inlines an image from outside content_dir into a preview', async () => {
    await mkdir(path.join(dir, 'index-dir'));
    await writeFile(path.join(dir, 'outside.png'), PNG);
    const response = await post('/admin/posts/preview', { file: '../index.md', title: 'x', date: '2024-05-01', body: '![](outside.png)' });
    assert.equal(response.statusCode, 200);
    assert.doesNotMatch(response.body, /data:image\/png/);
  });

  it('shows in a notice only an image name an upload could have given', async () => {
    const spoofed = await get('/admin/posts/edit?file=hello.md&notice=image&image=Your%20account%20is%20locked');
    assert.equal(spoofed.statusCode, 200);
    assert.doesNotMatch(spoofed.body, /account is locked/);
    assert.match((await get('/admin/posts/edit?file=hello.md&notice=image&image=boat.png')).body, /!\[\]\(boat\.png\)/);
  });

  it('answers 404 for a file outside content_dir, and moves a deleted post to the trash', async () => {
    await writeFile(path.join(dir, 'secret.md'), '+++\ntitle = "Secret"\ndate = 2024-05-01\n+++\nThe secret text.\n');
    const outside = await get('/admin/posts/edit?file=..%2Fsecret.md');
    assert.equal(outside.statusCode, 404);
    assert.doesNotMatch(outside.body, /secret text/);
    const asked = await post('/admin/posts/delete', { file: 'hello.md' });
    assert.equal(asked.statusCode, 200, 'a delete asks first');
    assert.deepEqual(await readdir(contentDir), ['hello.md']);
    const removed = await post('/admin/posts/delete', { file: 'hello.md', confirm: 'yes' });
    assert.equal(removed.statusCode, 303);
    assert.deepEqual(await readdir(contentDir), []);
    const trashed = await readdir(path.join(dir, 'data', 'trash'));
    assert.equal(trashed.length, 1);
    assert.match(trashed[0] ?? '', /hello\.md$/);
  });
});

function decodeEntities(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[name] ?? '');
}
