// Slugs (docs/admin.md "Posts"): an empty slug on Create is made from the title, numbered past the slugs taken; a
// typed slug another post already has in the same language is refused on Create and on Save with 422 naming that
// post's file, and nothing is written. Checked against the files on disk, through the admin's front door.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { slugOfTitle } from '../../../src/admin/posts/slug-of-title.js';
import { versionToken } from '../../../src/admin/posts/version-token.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { captureLogs } from '../../support/log-capture.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from '../admin-app.js';

describe('slugOfTitle', () => {
  const cases: Array<[string, string]> = [
    ['Crème brûlée: 10 tips!', 'creme-brulee-10-tips'],
    ['Hello, World', 'hello-world'],
    ['  --Already-- hyphenated--  ', 'already-hyphenated'],
    ['Straße', 'strasse'],
    ['ẞIG STRASSE', 'ssig-strasse'],
    ['Æsir and æble', 'aesir-and-aeble'],
    ['Ørsted, København', 'orsted-kobenhavn'],
    ['Œuvre complète', 'oeuvre-complete'],
    ['Łódź', 'lodz'],
    ['Đorđe', 'dorde'],
    ['Þór', 'thor'],
    ['Ångström & Ñandú', 'angstrom-nandu'],
    ['ﬁve ﬂowers', 'five-flowers'],
    ['C++ / C# 2024', 'c-c-2024'],
    ['naïve café', 'naive-cafe'],
    ['日本語のタイトル', 'post'],
    ['!!!', 'post'],
  ];
  for (const [title, slug] of cases) {
    it(`${JSON.stringify(title)} -> ${slug}`, () => assert.equal(slugOfTitle(title), slug));
  }

  it('numbers a slug that is taken: -2, then -3, ...', () => {
    assert.equal(slugOfTitle('Hello', new Set(['hello'])), 'hello-2');
    assert.equal(slugOfTitle('Hello', new Set(['hello', 'hello-2'])), 'hello-3');
    assert.equal(slugOfTitle('Hello', new Set(['hello-2'])), 'hello');
    assert.equal(slugOfTitle('Hello', (slug) => slug !== 'hello-4'), 'hello-4');
  });

  it('keeps a long title readable: at most 80 characters, cut at a hyphen', () => {
    const slug = slugOfTitle('word '.repeat(40));
    assert.ok(slug.length <= 80, slug);
    assert.match(slug, /^word(-word)+$/);
  });
});

describe('slugs through the posts pages', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let contentDir: string;
  let session: { csrf: string; cookie: string };

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('post-slugs'));
    contentDir = path.join(dir, 'posts');
    await mkdir(contentDir);
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    const pages = createPostPages({
      posts: createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => Date.UTC(2024, 4, 1, 12) }),
      listVersions: () => [],
      renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 }),
      maxUploadBytes: 1024 * 1024,
      logger: captureLogs().logger,
    });
    app = await startTestAdmin({ dataDir, pages });
    session = await signIn(app);
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const post = (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));
  const put = (file: string, text: string) => writeFile(path.join(contentDir, file), text);
  const read = (file: string) => readFile(path.join(contentDir, file), 'utf8');
  const listing = async () => (await readdir(contentDir)).sort();
  /** What the editor's form posts to save `file` as it is on disk, `change` applied. */
  const saveForm = async (file: string, fields: Record<string, string>) => {
    const text = await read(file);
    return { file, version: versionToken(text), base_text: text, date: '2024-05-01', body: 'Text.\n', ...fields };
  };

  it('makes an empty slug from the title on Create, and numbers it past the slugs taken in that language', async () => {
    const first = await post('/admin/posts/new', { title: 'Crème brûlée: 10 tips!', slug: '', date: '2024-05-02', body: 'Sweet.', draft: 'on' });
    assert.equal(first.statusCode, 303, first.body);
    assert.equal(first.headers.location, '/admin/posts/edit?file=creme-brulee-10-tips.md&notice=created');
    assert.doesNotMatch(await read('creme-brulee-10-tips.md'), /^slug/m, 'the file name is the slug: no key');

    const second = await post('/admin/posts/new', { title: 'Crème Brûlée — 10 tips', date: '2024-05-03', body: 'Again.', draft: 'on' });
    assert.equal(second.headers.location, '/admin/posts/edit?file=creme-brulee-10-tips-2.md&notice=created');

    // A post whose front matter says `slug = "fresh-start"` takes that slug, though its file is named otherwise.
    await put('2024-notes.md', '+++\ntitle = "Notes"\nslug = "fresh-start"\ndate = 2024-05-01\n+++\nx\n');
    const third = await post('/admin/posts/new', { title: 'Fresh start', date: '2024-05-04', body: 'x', draft: 'on' });
    assert.equal(third.headers.location, '/admin/posts/edit?file=fresh-start-2.md&notice=created');
    // In another language the slug is free.
    const french = await post('/admin/posts/new', { title: 'Fresh start', lang: 'fr', date: '2024-05-04', body: 'x', draft: 'on' });
    assert.equal(french.headers.location, '/admin/posts/edit?file=fresh-start.md&notice=created');
  });

  it('refuses on Create a typed slug another post has in the same language, naming its file, and writes nothing', async () => {
    await put('2024-notes.md', '+++\ntitle = "Notes"\nslug = "notes"\ndate = 2024-05-01\n+++\nx\n');
    const before = await listing();
    const refused = await post('/admin/posts/new', { title: 'Other notes', slug: 'notes', date: '2024-05-02', body: 'Mine.', draft: 'on' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /2024-notes\.md/);
    assert.match(refused.body, /Mine\./, 'the typed text is on the page');
    assert.deepEqual(await listing(), before);
    const french = await post('/admin/posts/new', { title: 'Notes', slug: 'notes', lang: 'fr', date: '2024-05-02', body: 'x', draft: 'on' });
    assert.equal(french.statusCode, 303, 'the same slug in another language is another version');
  });

  it('refuses on Save a typed slug another post has in the same language, naming its file, and leaves the file as it was', async () => {
    await put('older.md', '+++\ntitle = "Older"\ndate = 2024-04-01\n+++\nOld.\n');
    const newer = '+++\ntitle = "Newer"\ndate = 2024-05-01\n+++\nText.\n';
    await put('newer.md', newer);
    const refused = await post('/admin/posts/save', await saveForm('newer.md', { title: 'Newer', slug: 'older', body: 'Typed text.\n' }));
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /older\.md/);
    assert.match(refused.body, /Typed text\./, 'the typed text is on the page');
    assert.equal(await read('newer.md'), newer, 'nothing written');

    // A `lang` that would make it a duplicate is refused the same way; a free slug is saved.
    await put('older.fr.md', '+++\ntitle = "Vieux"\ndate = 2024-04-01\n+++\nVieux.\n');
    const intoFrench = await post('/admin/posts/save', await saveForm('newer.md', { title: 'Newer', slug: 'older', lang: 'fr' }));
    assert.equal(intoFrench.statusCode, 422);
    assert.match(intoFrench.body, /older\.fr\.md/);
    const free = await post('/admin/posts/save', await saveForm('newer.md', { title: 'Newer', slug: 'newest' }));
    assert.equal(free.statusCode, 303, free.body);
    assert.match(await read('newer.md'), /slug = "newest"/);
    const again = await post('/admin/posts/save', await saveForm('newer.md', { title: 'Newer again', slug: 'newest' }));
    assert.equal(again.statusCode, 303, 'its own slug is no duplicate');
  });
});
