// Nothing typed is lost through a button (docs/admin.md "Posts"): Publish, Unpublish, Add translation and Upload
// image accept the editor's whole form and save what was typed first, through the save's own checks: a file changed
// meanwhile answers the 409 page with the typed text, a field problem (a slug another post has) the editor with it.
// A POST with only the file and its version (an older page) acts on the file as it is on disk.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { versionToken } from '../../../src/admin/posts/version-token.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from '../admin-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');
const DRAFT = '+++\ntitle = "Trip"\ndate = 2024-05-01\ndraft = true\n+++\nOn disk.\n';

describe('the editor\'s buttons keep what was typed', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let contentDir: string;
  let logs: LogCapture;
  let session: { csrf: string; cookie: string };

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('keep-typed-text'));
    contentDir = path.join(dir, 'posts');
    await mkdir(contentDir);
    await writeFile(path.join(contentDir, 'trip.md'), DRAFT);
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    logs = captureLogs();
    const pages = createPostPages({
      posts: createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => Date.UTC(2024, 4, 1, 12) }),
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
  const read = (file: string) => readFile(path.join(contentDir, file), 'utf8');
  /** The whole editor form as a browser posts it, opened on `opened`, with what was typed (CRLF, as browsers send). */
  const typedForm = (opened: string, typed: Record<string, string>): Record<string, string> => ({
    file: 'trip.md',
    version: versionToken(opened),
    base_text: opened.replace(/\n/g, '\r\n'),
    title: 'Trip',
    slug: '',
    date: '2024-05-01',
    tags: '',
    excerpt: '',
    cover: '',
    coverAlt: '',
    author: '',
    lang: '',
    draft: 'on',
    body: 'On disk.\r\n',
    ...typed,
  });
  const multipart = (fields: Record<string, string>, image?: { name: string; bytes: Buffer }) => {
    const boundary = 'postbox-typed-boundary';
    const parts: Buffer[] = Object.entries({ csrf_token: session.csrf, ...fields }).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    if (image) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${image.name}"\r\nContent-Type: image/png\r\n\r\n`), image.bytes, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return app.inject({ method: 'POST', url: '/admin/posts/upload', payload: Buffer.concat(parts), headers: { cookie: session.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` } });
  };

  it('Publish saves the typed title and text and publishes them in one write', async () => {
    const published = await post('/admin/posts/publish', typedForm(DRAFT, { title: 'Trip to the sea', body: 'Typed, not saved yet.\r\n' }));
    assert.equal(published.statusCode, 303, published.body);
    assert.equal(published.headers.location, '/admin/posts/edit?file=trip.md&notice=published');
    assert.equal(await read('trip.md'), '+++\ntitle = "Trip to the sea"\ndate = 2024-05-01\n+++\nTyped, not saved yet.\n');
    assert.ok(logs.lines().some((line) => line.event === 'admin_post_published' && line.file === 'trip.md'));
  });

  it('Unpublish saves the typed text and sets draft', async () => {
    const live = DRAFT.replace('draft = true\n', '');
    await writeFile(path.join(contentDir, 'trip.md'), live);
    const unpublished = await post('/admin/posts/unpublish', typedForm(live, { draft: '', body: 'Second thoughts.\r\n' }));
    assert.equal(unpublished.statusCode, 303, unpublished.body);
    const text = await read('trip.md');
    assert.match(text, /draft = true/);
    assert.match(text, /Second thoughts\./);
  });

  it('Add translation saves the typed text first and copies it', async () => {
    const added = await post('/admin/posts/translate', typedForm(DRAFT, { body: 'Typed before translating.\r\n', language: 'fr' }));
    assert.equal(added.statusCode, 303, added.body);
    assert.equal(added.headers.location, '/admin/posts/edit?file=trip.fr.md&notice=translation');
    assert.match(await read('trip.md'), /Typed before translating\./);
    assert.match(await read('trip.fr.md'), /Typed before translating\./);
  });

  it('Upload image saves the typed text first, then stores the image beside the post', async () => {
    const stored = await multipart(typedForm(DRAFT, { body: 'Typed before the upload.\r\n' }), { name: 'boat.png', bytes: PNG });
    assert.equal(stored.statusCode, 303, stored.body);
    assert.equal(stored.headers.location, '/admin/posts/edit?file=trip%2Findex.md&notice=image&image=boat.png');
    assert.match(await read('trip/index.md'), /Typed before the upload\./);
    assert.deepEqual((await readdir(path.join(contentDir, 'trip'))).sort(), ['boat.png', 'index.md']);
  });

  it('Upload image without a file gives the editor back with the typed text, and writes nothing', async () => {
    const refused = await multipart(typedForm(DRAFT, { body: 'Typed, image forgotten.\r\n' }));
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /Typed, image forgotten\./);
    assert.match(refused.body, /choose an image file first/i);
    assert.equal(await read('trip.md'), DRAFT);
  });

  it('answers the 409 page with the typed text when the file changed meanwhile in the same lines, and writes nothing', async () => {
    const changed = DRAFT.replace('On disk.', 'Changed by someone else.');
    await writeFile(path.join(contentDir, 'trip.md'), changed);
    const conflict = await post('/admin/posts/publish', typedForm(DRAFT, { body: 'My typed words.\r\n' }));
    assert.equal(conflict.statusCode, 409);
    assert.match(conflict.body, /My typed words\./);
    assert.match(conflict.body, /Changed by someone else\./);
    assert.equal(await read('trip.md'), changed);
  });

  it('answers the editor (422) with the typed text when the typed slug is another post\'s, and publishes nothing', async () => {
    await writeFile(path.join(contentDir, 'other.md'), '+++\ntitle = "Other"\ndate = 2024-05-01\n+++\nx\n');
    const refused = await post('/admin/posts/publish', typedForm(DRAFT, { slug: 'other', body: 'Typed with a taken slug.\r\n' }));
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /Typed with a taken slug\./);
    assert.match(refused.body, /other\.md/);
    assert.equal(await read('trip.md'), DRAFT);
  });

  it('acts on the file as it is on disk when the POST carries no fields (an older page)', async () => {
    const published = await post('/admin/posts/publish', { file: 'trip.md', version: versionToken(DRAFT) });
    assert.equal(published.statusCode, 303, published.body);
    assert.equal(await read('trip.md'), DRAFT.replace('draft = true\n', ''));
    const translated = await post('/admin/posts/translate', { file: 'trip.md', language: 'de' });
    assert.equal(translated.statusCode, 303, translated.body);
    assert.match(await read('trip.de.md'), /On disk\./);
  });
});
