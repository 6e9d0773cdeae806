// The posts pages for each role, through the admin's own guard (light-my-request) over a temp content folder and
// the blog's own listing of it: an author sees and changes only the posts that carry their name (a refusal is 403
// and leaves every file byte for byte as it was), an editor every post, and each role's navigation shows only the
// sections it opens. Each test starts with what the person may do, then what they may not.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { StoredAccount } from '../../../src/admin/accounts/account.js';
import { createAccounts } from '../../../src/admin/accounts/accounts.js';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { listVersionStates } from '../../../src/blog/catalog/version-states.js';
import { parsePostFileName } from '../../../src/blog/content/file-name.js';
import { createLanguageNames } from '../../../src/blog/content/language.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { parsePostFile } from '../../../src/blog/content/parse-post.js';
import type { PostVersion } from '../../../src/blog/content/post.js';
import { captureLogs } from '../../support/log-capture.js';
import { createMemoryAccountStore } from '../../support/memory-accounts.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, startSession, startTestAdmin, testHash, type TestAdmin } from '../admin-app.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');
const ANNS = '+++\ntitle = "Ann\'s notes"\ndate = 2024-04-01\ndraft = true\nauthor = "ann"\n+++\nAnn wrote this.\n';
const BOBS = '+++\ntitle = "Bob\'s trip"\ndate = 2024-04-02\n# Bob keeps this comment\nauthor = "bob"\n+++\nBob wrote this.\n';
const NOBODYS = '+++\ntitle = "House rules"\ndate = 2024-04-03\n+++\nNobody signed this.\n';

describe('the posts pages by role', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let contentDir: string;
  let app: TestAdmin;

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('author-role'));
    contentDir = path.join(dir, 'posts');
    const dataDir = path.join(dir, 'data');
    await mkdir(contentDir);
    await mkdir(dataDir);
    await writeFile(path.join(contentDir, 'anns.md'), ANNS);
    await writeFile(path.join(contentDir, 'bobs.md'), BOBS);
    await writeFile(path.join(contentDir, 'nobodys.md'), NOBODYS);
    const hash = await testHash();
    const stored = (name: string, role: StoredAccount['role']): StoredAccount => ({ name, role, passwordHash: hash, generation: 0, passkeys: [], createdAt: 0 });
    // olga is the configuration's user, an owner; the others are kept by the account store.
    const accounts = createAccounts([{ name: 'olga', password_hash: hash }], createMemoryAccountStore([stored('ann', 'author'), stored('bob', 'author'), stored('eddie', 'editor')]));
    const pages = createPostPages({
      posts: createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => NOW }),
      listVersions: () => blogListing(contentDir),
      renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 }),
      maxUploadBytes: 1024 * 1024,
      sending: 'ready',
      logger: captureLogs().logger,
    });
    app = await startTestAdmin({ dataDir, pages, users: ['olga'], accounts });
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  /** A signed-in person: GET and POST (with their CSRF token) as them. */
  async function as(name: string) {
    const session = await startSession(app, name);
    return {
      get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } }),
      post: (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie })),
      upload: (file: string, version: string) => {
        const boundary = 'author-role-boundary';
        const parts = Object.entries({ csrf_token: session.csrf, file, version }).map(([field, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`);
        const payload = Buffer.concat([
          Buffer.from(parts.join('')),
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="pic.png"\r\nContent-Type: image/png\r\n\r\n`),
          PNG,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        return app.inject({ method: 'POST', url: '/admin/posts/upload', payload, headers: { cookie: session.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` } });
      },
    };
  }

  /** The editor's hidden fields of `file` as `person` opens it (the version token and the text it was opened on). */
  async function open(person: Awaited<ReturnType<typeof as>>, file: string) {
    const page = await person.get(`/admin/posts/edit?file=${encodeURIComponent(file)}`);
    const value = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1];
    return { page, version: value('version') ?? '', baseText: decodeEntities(value('base_text') ?? '') };
  }

  /** Every file under content_dir with its bytes: what a refusal must leave exactly as it was. */
  async function snapshot(): Promise<Map<string, Buffer>> {
    const files = new Map<string, Buffer>();
    for (const entry of (await readdir(contentDir, { recursive: true, withFileTypes: true })).filter((found) => found.isFile())) {
      const file = path.relative(contentDir, path.join(entry.parentPath, entry.name));
      files.set(file, await readFile(path.join(contentDir, file)));
    }
    return files;
  }

  const bobsFields = { file: 'bobs.md', title: 'Taken over', date: '2024-04-02', author: 'ann', body: 'Ann rewrote this.\n' };

  it("refuses an author's slug and language that would make their post a translation of another's post", async () => {
    const ann = await as('ann');
    const own = await open(ann, 'anns.md');
    const before = await snapshot();
    const joined = await ann.post('/admin/posts/save', { file: 'anns.md', version: own.version, base_text: own.baseText, title: "Ann's notes", date: '2024-04-01', draft: 'on', author: 'ann', slug: 'bobs', lang: 'fr', body: 'Ann wrote this.\n' });
    assert.equal(joined.statusCode, 422, joined.body);
    assert.match(joined.body, /another person&#39;s post \(bobs\.md\)|another person's post \(bobs\.md\)/);
    assert.deepEqual(await snapshot(), before, 'nothing was written');

    const eddie = await as('eddie');
    const opened = await open(eddie, 'anns.md');
    const saved = await eddie.post('/admin/posts/save', { file: 'anns.md', version: opened.version, base_text: opened.baseText, title: "Ann's notes", date: '2024-04-01', draft: 'on', author: 'ann', slug: 'bobs', lang: 'fr', body: 'Ann wrote this.\n' });
    assert.equal(saved.statusCode, 303, 'an editor may change every post, and so its translations');
  });

  it("lists an author's own posts only, without Send to subscribers; an editor's and an owner's list every post with it", async () => {
    const ann = await as('ann');
    const list = await ann.get('/admin/posts');
    assert.equal(list.statusCode, 200, list.body);
    assert.match(list.body, /href="\/admin\/posts\/edit\?file=anns\.md"/);
    assert.doesNotMatch(list.body, /bobs\.md/, "another author's post is not listed");
    assert.doesNotMatch(list.body, /nobodys\.md/, 'nor a post without an author');
    assert.doesNotMatch(list.body, /Send to subscribers/);

    for (const name of ['eddie', 'olga']) {
      const every = await (await as(name)).get('/admin/posts');
      assert.equal(every.statusCode, 200, every.body);
      for (const file of ['anns.md', 'bobs.md', 'nobodys.md']) assert.match(every.body, new RegExp(`file=${file.replace('.', '\\.')}"`), `${name} sees ${file}`);
      assert.match(every.body, /Send to subscribers/, `${name} may send a published post`);
    }
  });

  it('creates an author\'s new post with their name as its author, whatever the form says', async () => {
    const ann = await as('ann');
    const form = await ann.get('/admin/posts/new');
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /<input type="text" id="field-author" name="author" value="ann" readonly/, 'the author field shows their name, read-only');

    const created = await ann.post('/admin/posts/new', { title: 'Fresh', slug: 'fresh', date: '2024-05-01', author: 'bob', body: 'New words.', draft: 'on' });
    assert.equal(created.statusCode, 303, created.body);
    assert.equal(created.headers.location, '/admin/posts/edit?file=fresh.md&notice=created');
    const text = await readFile(path.join(contentDir, 'fresh.md'), 'utf8');
    assert.match(text, /^author = "ann"$/m);
    assert.doesNotMatch(text, /bob/);
    assert.match((await ann.get('/admin/posts')).body, /file=fresh\.md"/, 'and it is in their list');
  });

  it("lets an author open, preview and save their own post, but not another's: 403, every file byte for byte as it was", async () => {
    const ann = await as('ann');
    const own = await open(ann, 'anns.md');
    assert.equal(own.page.statusCode, 200, own.page.body);
    const saved = await ann.post('/admin/posts/save', { file: 'anns.md', version: own.version, base_text: own.baseText, title: "Ann's better notes", date: '2024-04-01', draft: 'on', author: 'ann', body: 'Ann wrote this.\n' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.match(await readFile(path.join(contentDir, 'anns.md'), 'utf8'), /title = "Ann's better notes"/);
    const ownPreview = await ann.post('/admin/posts/preview', { file: 'anns.md', title: 'x', date: '2024-04-01', body: 'Previewed words.' });
    assert.equal(ownPreview.statusCode, 200, ownPreview.body);
    assert.match(ownPreview.body, /Previewed words\./);

    const before = await snapshot();
    const opened = await ann.get('/admin/posts/edit?file=bobs.md');
    assert.equal(opened.statusCode, 403);
    assert.doesNotMatch(opened.body, /Bob wrote this/, 'nothing of the post is shown');
    const bobsVersion = (await open(await as('eddie'), 'bobs.md')).version;
    assert.notEqual(bobsVersion, '', 'the token a save of the current file presents');
    const save = await ann.post('/admin/posts/save', { ...bobsFields, version: bobsVersion, base_text: BOBS });
    assert.equal(save.statusCode, 403);
    const preview = await ann.post('/admin/posts/preview', { ...bobsFields, version: bobsVersion });
    assert.equal(preview.statusCode, 403);
    assert.equal((await ann.get('/admin/posts/edit?file=nobodys.md')).statusCode, 403, 'a post without an author is not theirs either');
    assert.deepEqual(await snapshot(), before);
  });

  it('decides on the front matter on disk now: a post given to another author since it was opened is not saved', async () => {
    const ann = await as('ann');
    const opened = await open(ann, 'anns.md');
    assert.equal(opened.page.statusCode, 200, opened.page.body);
    const reassigned = (await readFile(path.join(contentDir, 'anns.md'), 'utf8')).replace('author = "ann"', 'author = "bob"');
    await writeFile(path.join(contentDir, 'anns.md'), reassigned);
    const save = await ann.post('/admin/posts/save', { file: 'anns.md', version: opened.version, base_text: opened.baseText, title: 'Mine again', date: '2024-04-01', author: 'ann', body: 'x' });
    assert.equal(save.statusCode, 403, 'refused, not a 409 showing the file as it is now');
    assert.equal(await readFile(path.join(contentDir, 'anns.md'), 'utf8'), reassigned);
  });

  it("lets an author publish their own post, but not publish, unpublish, translate, delete or add an image to another's", async () => {
    const ann = await as('ann');
    const published = await ann.post('/admin/posts/publish', { file: 'anns.md' });
    assert.equal(published.statusCode, 303, published.body);
    assert.doesNotMatch(await readFile(path.join(contentDir, 'anns.md'), 'utf8'), /draft/);

    // bob's published post, and a draft of his to publish.
    await writeFile(path.join(contentDir, 'bobs-draft.md'), BOBS.replace('title = "Bob\'s trip"', 'title = "Bob\'s draft"\ndraft = true'));
    const before = await snapshot();
    const version = (await open(await as('eddie'), 'bobs.md')).version;
    const refusals = [
      await ann.post('/admin/posts/publish', { file: 'bobs-draft.md' }),
      await ann.post('/admin/posts/unpublish', { file: 'bobs.md', version }),
      await ann.post('/admin/posts/translate', { file: 'bobs.md', version, language: 'fr' }),
      await ann.post('/admin/posts/delete', { file: 'bobs.md', version }),
      await ann.post('/admin/posts/delete', { file: 'bobs.md' }),
      await ann.upload('bobs.md', version),
    ];
    assert.deepEqual(refusals.map((answer) => answer.statusCode), [403, 403, 403, 403, 403, 403]);
    assert.deepEqual(await snapshot(), before, 'every file as it was, nothing added, moved or trashed');
    assert.ok(!(await readdir(path.join(dir, 'data'))).includes('trash'), 'nothing trashed');
  });

  it("stores an image beside an author's own post, but not when another's translation would move into its folder", async () => {
    const ann = await as('ann');
    const stored = await ann.upload('anns.md', (await open(ann, 'anns.md')).version);
    assert.equal(stored.statusCode, 303, stored.body);
    assert.deepEqual((await readdir(path.join(contentDir, 'anns'))).sort(), ['index.md', 'pic.png']);

    await writeFile(path.join(contentDir, 'bobs.fr.md'), BOBS.replace('author = "bob"', 'author = "bob"\nlang = "fr"'));
    await writeFile(path.join(contentDir, 'bobs.de.md'), BOBS.replace('author = "bob"', 'author = "ann"\nlang = "de"'));
    const before = await snapshot();
    const refused = await ann.upload('bobs.de.md', (await open(ann, 'bobs.de.md')).version);
    assert.equal(refused.statusCode, 403, 'bobs.md and bobs.fr.md would move into bobs/');
    assert.deepEqual(await snapshot(), before);
  });

  it('keeps the author of an author\'s own post: the field is read-only, and a changed value is replaced by their name', async () => {
    const ann = await as('ann');
    const opened = await open(ann, 'anns.md');
    assert.match(opened.page.body, /<input type="text" id="field-author" name="author" value="ann" readonly/);
    const saved = await ann.post('/admin/posts/save', { file: 'anns.md', version: opened.version, base_text: opened.baseText, title: 'Handed over', date: '2024-04-01', draft: 'on', author: 'bob', body: 'Ann wrote this.\n' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(await readFile(path.join(contentDir, 'anns.md'), 'utf8'), ANNS.replace('title = "Ann\'s notes"', 'title = "Handed over"'));

    const emptied = await open(ann, 'anns.md');
    const cleared = await ann.post('/admin/posts/save', { file: 'anns.md', version: emptied.version, base_text: emptied.baseText, title: 'Handed over', date: '2024-04-01', draft: 'on', author: '', body: 'Ann wrote this.\n' });
    assert.equal(cleared.statusCode, 303, cleared.body);
    assert.match(await readFile(path.join(contentDir, 'anns.md'), 'utf8'), /^author = "ann"$/m, 'nor can they empty it');
  });

  it("lets an editor open, save, reassign and publish anyone's post", async () => {
    const eddie = await as('eddie');
    const opened = await open(eddie, 'bobs.md');
    assert.equal(opened.page.statusCode, 200, opened.page.body);
    assert.match(opened.page.body, /<input type="text" id="field-author" name="author" value="bob"\/>/, 'the author field is editable');
    const saved = await eddie.post('/admin/posts/save', { file: 'bobs.md', version: opened.version, base_text: opened.baseText, title: "Bob's trip", date: '2024-04-02', author: 'ann', body: 'Bob wrote this.\n' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(await readFile(path.join(contentDir, 'bobs.md'), 'utf8'), BOBS.replace('author = "bob"', 'author = "ann"'));

    const unpublished = await eddie.post('/admin/posts/unpublish', { file: 'nobodys.md' });
    assert.equal(unpublished.statusCode, 303, unpublished.body);
    assert.match(await readFile(path.join(contentDir, 'nobodys.md'), 'utf8'), /^draft = true$/m);
  });

  it('shows each role only the sections it opens in the navigation', async () => {
    const navigation = async (name: string) => {
      const page = await (await as(name)).get('/admin/posts');
      assert.equal(page.statusCode, 200, page.body);
      const nav = /<nav aria-label="Admin sections"[\s\S]*?<\/nav>/.exec(page.body)?.[0] ?? '';
      return [...nav.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    };
    const owners = await navigation('olga');
    for (const href of ['/admin', '/admin/posts', '/admin/campaigns', '/admin/inbox', '/admin/subscribers', '/admin/failed']) assert.ok(owners.includes(href), `an owner has ${href}`);
    assert.deepEqual(await navigation('eddie'), ['/admin/posts', '/admin/comments', '/admin/analytics', '/admin/campaigns', '/admin/account']);
    assert.deepEqual(await navigation('ann'), ['/admin/posts', '/admin/comments', '/admin/account']);
  });
});

/** The blog's own listing of `contentDir` (src/blog/catalog/version-states.ts), as /admin/posts shows it. */
async function blogListing(contentDir: string) {
  const languageNames = createLanguageNames();
  const context = { markdown: createMarkdownTools(), languageNames, defaultLanguage: 'en', baseUrl: 'https://blog.example.com' };
  const posts: PostVersion[] = [];
  for (const file of (await readdir(contentDir, { recursive: true })).map((entry) => entry.split(path.sep).join('/'))) {
    if (!file.endsWith('.md')) continue;
    const parsed = parsePostFile(file, await readFile(path.join(contentDir, file), 'utf8'), context);
    if (parsed.ok) posts.push(parsed.post);
  }
  return listVersionStates(posts, [], NOW, { parseFileName: (file) => parsePostFileName(file, languageNames), defaultLanguage: 'en' });
}

function decodeEntities(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[name] ?? '');
}
