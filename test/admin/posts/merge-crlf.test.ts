// Two editors of one post (docs/admin.md "Posts"): browsers send the text area and the hidden base text with CRLF
// line ends, so the three-way merge compares lines with LF line ends. Two tabs changing different paragraphs are
// saved together; changes to the same lines answer the 409 page, which shows both versions side by side with the
// changed lines marked in words, and keeps the person's text in an editable field.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { mergeVersions } from '../../../src/admin/posts/merge.js';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { versionToken } from '../../../src/admin/posts/version-token.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { captureLogs } from '../../support/log-capture.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from '../admin-app.js';

const POST = '+++\ntitle = "Three paragraphs"\ndate = 2024-05-01\n+++\n\nThe first paragraph.\n\nThe second paragraph.\n\nThe third paragraph.\n';
const BODY = 'The first paragraph.\n\nThe second paragraph.\n\nThe third paragraph.\n';
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

describe('mergeVersions', () => {
  it('merges changes to different lines whatever line ends each text came with', () => {
    const mine = crlf(POST.replace('first paragraph', 'first paragraph, mine'));
    const theirs = POST.replace('third paragraph', 'third paragraph, theirs');
    assert.equal(mergeVersions(mine, crlf(POST), theirs), POST.replace('first paragraph', 'first paragraph, mine').replace('third paragraph', 'third paragraph, theirs'));
  });

  it('gives the merge the line ends of the file on disk', () => {
    const theirs = crlf(POST.replace('third paragraph', 'third paragraph, theirs'));
    const merged = mergeVersions(POST.replace('first paragraph', 'first, mine'), POST, theirs);
    assert.equal(merged, crlf(POST.replace('first paragraph', 'first, mine').replace('third paragraph', 'third paragraph, theirs')));
  });

  it('finds no merge where both changed the same line', () => {
    assert.equal(mergeVersions(crlf(POST.replace('second', 'my second')), crlf(POST), POST.replace('second', 'their second')), null);
  });
});

describe('two tabs saving one post through the posts pages', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let contentDir: string;
  let session: { csrf: string; cookie: string };

  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('merge-crlf'));
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
  const onDisk = () => readFile(path.join(contentDir, 'post.md'), 'utf8');
  /** What a browser posts from an editor opened on `opened`: the text area and the hidden base text with CRLF. */
  const tab = (opened: string, body: string, title = 'Three paragraphs') => ({
    file: 'post.md',
    version: versionToken(opened),
    base_text: crlf(opened),
    title,
    date: '2024-05-01',
    body: crlf(body),
  });

  for (const [name, fileText] of [
    ['LF', POST],
    ['CRLF', crlf(POST)],
  ] as const) {
    it(`saves two tabs' changes to different paragraphs together (a file with ${name} line ends)`, async () => {
      await writeFile(path.join(contentDir, 'post.md'), fileText);
      const first = await post('/admin/posts/save', tab(fileText, BODY.replace('first paragraph', 'first paragraph, from tab one')));
      assert.equal(first.statusCode, 303, first.body);
      const second = await post('/admin/posts/save', tab(fileText, BODY.replace('third paragraph', 'third paragraph, from tab two')));
      assert.equal(second.statusCode, 303, `merged, not the 409 page: ${second.statusCode}`);
      assert.equal(second.headers.location, '/admin/posts/edit?file=post.md&notice=merged');
      const expected = POST.replace('first paragraph', 'first paragraph, from tab one').replace('third paragraph', 'third paragraph, from tab two');
      assert.equal(await onDisk(), name === 'CRLF' ? crlf(expected) : expected, 'both changes, in the file\'s own line ends');
    });
  }

  it('answers 409 for changes to the same paragraph: both versions in two labelled columns, changed lines marked, the typed text kept', async () => {
    await writeFile(path.join(contentDir, 'post.md'), POST);
    await post('/admin/posts/save', tab(POST, BODY.replace('second paragraph', 'second paragraph, theirs')));
    const written = await onDisk();
    const conflict = await post('/admin/posts/save', tab(POST, BODY.replace('second paragraph', 'second paragraph, mine')));
    assert.equal(conflict.statusCode, 409);
    assert.equal(await onDisk(), written, 'nothing written');
    const html = conflict.body;
    assert.match(html, /<link rel="stylesheet" href="\/admin\/posts\/conflict\.css"/);
    const css = await app.inject({ method: 'GET', url: '/admin/posts/conflict.css', headers: { cookie: session.cookie } });
    assert.match(css.body, /grid-template-columns: minmax\(0, 1fr\) minmax\(0, 1fr\)/, 'two columns on a wide screen');
    assert.match(css.body, /@media \(min-width/, 'one column below that width');
    const columns = [...html.matchAll(/<section class="admin-compare-version" aria-labelledby="([^"]+)"><h2 id="\1">([^<]+)<\/h2>([\s\S]*?)<\/section>/g)];
    assert.deepEqual(columns.map((column) => column[2]), ['Your version', 'The version on disk now'], 'each column with its own visible label');
    const marked = (column: string) => [...column.matchAll(/<li><strong class="admin-compare-marker">changed<\/strong><mark>([^<]*)<\/mark><\/li>/g)].map((match) => match[1]);
    assert.deepEqual(marked(columns[0]![3]!), ['The second paragraph, mine.'], 'the changed line marked in words, not colour alone');
    assert.deepEqual(marked(columns[1]![3]!), ['The second paragraph, theirs.']);
    assert.match(columns[0]![3]!, /<li>The first paragraph\.<\/li>/, 'a common line is not marked');
    // The person's text stays in an editable field of a form that saves it.
    const form = /<form method="post" action="\/admin\/posts\/save"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    const textarea = /<textarea id="conflict-body" name="body"[^>]*>([\s\S]*?)<\/textarea>/.exec(form);
    assert.ok(textarea, 'the typed text is in the form');
    assert.doesNotMatch(textarea[0], /readonly/i);
    assert.match(textarea[1]!, /The second paragraph, mine\./);
    assert.match(form, /name="version" value="[0-9a-f]{64}"/);
  });
});
