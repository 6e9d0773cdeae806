// Raw HTML is an owner's right (docs/admin.md "Raw HTML"): an author's script in a post is sanitised wherever an
// owner reads it (the blog, the preview), only an owner can mark a post `raw_html`, and any save, merge or
// restore by someone else takes the mark off, so an author cannot run a script with an owner's session.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { StoredAccount } from '../../../src/admin/accounts/account.js';
import { createAccounts } from '../../../src/admin/accounts/accounts.js';
import { createEditorPages } from '../../../src/admin/post-pages/editor-pages.js';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { createPostFiles, type PostFiles } from '../../../src/admin/posts/post-files.js';
import { withoutRawHtml } from '../../../src/admin/posts/raw-html.js';
import { listVersionStates } from '../../../src/blog/catalog/version-states.js';
import { parsePostFileName } from '../../../src/blog/content/file-name.js';
import { createLanguageNames } from '../../../src/blog/content/language.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { parsePostFile } from '../../../src/blog/content/parse-post.js';
import type { PostVersion } from '../../../src/blog/content/post.js';
import { createDraftFiles } from '../../../src/adapters/files/drafts.js';
import { captureLogs } from '../../support/log-capture.js';
import { createMemoryAccountStore } from '../../support/memory-accounts.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, startSession, startTestAdmin, testHash, type TestAdmin } from '../admin-app.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const SCRIPT = '<script>fetch("/admin/users/invite")</script>';
const ANNS = `+++\ntitle = "Ann's notes"\ndate = 2024-04-01\nauthor = "ann"\n+++\nAnn wrote this.\n`;

describe('raw HTML in /admin', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let contentDir: string;
  let posts: PostFiles;
  let app: TestAdmin;

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('admin-raw-html'));
    contentDir = path.join(dir, 'posts');
    const dataDir = path.join(dir, 'data');
    await mkdir(contentDir);
    await mkdir(dataDir);
    await writeFile(path.join(contentDir, 'anns.md'), ANNS);
    const hash = await testHash();
    const stored = (name: string, role: StoredAccount['role']): StoredAccount => ({ name, role, passwordHash: hash, generation: 0, passkeys: [], createdAt: 0 });
    const accounts = createAccounts([{ name: 'olga', password_hash: hash }], createMemoryAccountStore([stored('ann', 'author'), stored('eddie', 'editor')]));
    posts = createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: () => NOW });
    const renderPreview = createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 });
    const logger = captureLogs().logger;
    const pages = [
      ...createPostPages({ posts, listVersions: () => blogListing(contentDir), renderPreview, maxUploadBytes: 1024 * 1024, sending: 'ready', logger }),
      ...createEditorPages({ posts, renderPreview, drafts: createDraftFiles(path.join(dataDir, 'drafts')), maxUploadBytes: 1024 * 1024, clock: () => NOW, logger }),
    ];
    app = await startTestAdmin({ dataDir, pages, users: ['olga'], accounts });
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  async function as(name: string) {
    const session = await startSession(app, name);
    return {
      get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } }),
      post: (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie })),
    };
  }

  /** Saves anns.md as `person` with `body` and the extra form fields, from the version on disk now. */
  async function save(person: Awaited<ReturnType<typeof as>>, body: string, extra: Record<string, string> = {}) {
    const page = await person.get('/admin/posts/edit?file=anns.md');
    const version = /name="version" value="([^"]*)"/.exec(page.body)?.[1] ?? '';
    const response = await person.post('/admin/posts/save', { file: 'anns.md', version, title: "Ann's notes", date: '2024-04-01', author: 'ann', body, ...extra });
    assert.equal(response.statusCode, 303, response.body);
    return readFile(path.join(contentDir, 'anns.md'), 'utf8');
  }

  const marked = (text: string) => /^raw_html = true$/m.test(text);

  it("sanitises an author's script in what an owner previews, with the Preview button and live", async () => {
    const ann = await as('ann');
    const text = await save(ann, `Hello ${SCRIPT} <img src="x.png" onerror="alert(1)">\n`, { raw_html: 'on' });
    assert.ok(!marked(text), 'an author cannot mark their post');
    const olga = await as('olga');
    const preview = await olga.post('/admin/posts/preview', { file: 'anns.md', title: "Ann's notes", date: '2024-04-01', author: 'ann', body: text.split('+++\n')[2]! });
    assert.equal(preview.statusCode, 200);
    const frame = decodeEntities(/srcdoc="([^"]*)"/.exec(preview.body)?.[1] ?? '');
    assert.match(frame, /Hello/);
    assert.doesNotMatch(frame, /<script|onerror/);
    const live = await olga.post('/admin/posts/preview.json', { file: 'anns.md', body: `Hello ${SCRIPT}` });
    assert.equal(live.statusCode, 200);
    assert.doesNotMatch(JSON.parse(live.body).html, /<script/);
  });

  it('lets an owner mark a post raw_html, and an author or editor saving it takes the mark off', async () => {
    const olga = await as('olga');
    assert.match((await olga.get('/admin/posts/edit?file=anns.md')).body, /name="raw_html"/, 'an owner has the checkbox');
    assert.ok(marked(await save(olga, `Embed ${SCRIPT}\n`, { raw_html: 'on' })));
    const live = await olga.post('/admin/posts/preview.json', { file: 'anns.md', body: `Embed ${SCRIPT}` });
    assert.match(JSON.parse(live.body).html, /<script>/, "the owner's own marked post previews as the blog serves it");

    const ann = await as('ann');
    const annPage = await ann.get('/admin/posts/edit?file=anns.md');
    assert.doesNotMatch(annPage.body, /name="raw_html"/);
    assert.match(annPage.body, /saving it cleans its HTML/);
    assert.ok(!marked(await save(ann, `Embed ${SCRIPT} and mine\n`)), "the author's save takes the mark off");

    assert.ok(marked(await save(olga, `Embed ${SCRIPT}\n`, { raw_html: 'on' })));
    assert.ok(!marked(await save(await as('eddie'), `Embed ${SCRIPT} edited\n`, { raw_html: 'on' })), 'nor may an editor keep or set it');
  });

  it("takes the mark off a restore, a translation and a merge made for someone who may not keep it", async () => {
    const markedText = ANNS.replace('author = "ann"\n', 'author = "ann"\nraw_html = true\n').replace('Ann wrote this.', SCRIPT);
    const forAuthor = posts.withAccess(() => true, { rawHtml: false });
    const opened = await posts.read('anns.md');
    assert.ok(opened.ok);
    const restored = await forAuthor.restore('anns.md', opened.post.version, markedText, 'abc123');
    assert.ok(restored.ok);
    assert.ok(!marked(await readFile(path.join(contentDir, 'anns.md'), 'utf8')));

    await writeFile(path.join(contentDir, 'anns.md'), markedText);
    const translated = await forAuthor.addTranslation('anns.md', 'fr');
    assert.ok(translated.ok);
    assert.ok(!marked(await readFile(path.join(contentDir, 'anns.fr.md'), 'utf8')));

    // The author opened the file before an owner marked it; their save merges with the owner's change.
    const before = await posts.read('anns.fr.md');
    assert.ok(before.ok);
    const ownerMarked = before.post.text.replace('author = "ann"\n', 'author = "ann"\nraw_html = true\n');
    await writeFile(path.join(contentDir, 'anns.fr.md'), ownerMarked);
    const merged = await forAuthor.save({ file: 'anns.fr.md', version: before.post.version, baseText: before.post.text, fields: before.post.fields, body: `${before.post.body}More.\n`, mergeWhenApart: true });
    assert.ok(merged.ok, JSON.stringify(merged));
    const after = await readFile(path.join(contentDir, 'anns.fr.md'), 'utf8');
    assert.match(after, /More\./);
    assert.ok(!marked(after));
  });

  it('refuses a write whose mark cannot be taken off, rather than keep it', () => {
    assert.equal(withoutRawHtml('---\n{title: x, raw_html: true}\n---\nx\n'), null);
    assert.equal(withoutRawHtml('---\ntitle: x\nraw_html: true\n---\nx\n'), '---\ntitle: x\n---\nx\n');
  });
});

async function blogListing(contentDir: string) {
  const languageNames = createLanguageNames();
  const context = { markdown: createMarkdownTools(), languageNames, defaultLanguage: 'en', baseUrl: 'https://blog.example.com' };
  const found: PostVersion[] = [];
  for (const file of (await readdir(contentDir, { recursive: true })).map((entry) => entry.split(path.sep).join('/'))) {
    if (!file.endsWith('.md')) continue;
    const parsed = parsePostFile(file, await readFile(path.join(contentDir, file), 'utf8'), context);
    if (parsed.ok) found.push(parsed.post);
  }
  return listVersionStates(found, [], NOW, { parseFileName: (file) => parsePostFileName(file, languageNames), defaultLanguage: 'en' });
}

function decodeEntities(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[name] ?? '');
}
