// Content changes on disk are served without a restart (docs/blog.md "Changes are picked up on their own":
// within a second or two). Real files in a temp dir, the real watcher; each change is polled for with a
// generous bound.
import assert from 'node:assert/strict';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { startBlog, type RunningBlog } from './fixture.js';

const BOUND_MS = 10_000;

/** Replaces a file in one step, as editors do (a hidden temp file, then a rename), so no half-written state is seen. */
async function replaceFile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  await writeFile(temp, text);
  await rename(temp, file);
}
const post = (title: string, date = '2024-01-01', extra = '') => `+++\ntitle = "${title}"\ndate = ${date}\n${extra}+++\n\nText of ${title}.\n`;

let dir: string;
let remove: () => Promise<void>;
let blog: RunningBlog;
beforeEach(async () => {
  ({ dir, remove } = await createTempDir('blog-reload'));
  await writeFile(path.join(dir, 'first.md'), post('First', '2024-01-01'));
  await mkdir(path.join(dir, 'folder'));
  await writeFile(path.join(dir, 'folder', 'index.md'), post('In a folder', '2024-01-02'));
  // The periodic rescan is off: every change below must come through the file-system watch.
  blog = await startBlog(dir, { deps: { rescanIntervalMs: 0 } });
});
afterEach(async () => {
  await blog.close();
  await remove();
});

const titles = async () => ((await blog.request('/api/blog/posts')).json.posts as Array<{ title: string }>).map((entry) => entry.title);
const until = (what: string, check: () => Promise<boolean>) => waitFor(what, async () => ((await check()) ? true : undefined), BOUND_MS);

describe('hot reload through a real folder', () => {
  it('serves an added, edited, renamed and deleted post', async () => {
    assert.deepEqual(await titles(), ['In a folder', 'First']);

    await writeFile(path.join(dir, 'second.md'), post('Second', '2024-02-01'));
    await until('the added post', async () => (await titles()).includes('Second'));
    assert.deepEqual(await titles(), ['Second', 'In a folder', 'First']);

    await writeFile(path.join(dir, 'first.md'), post('First, edited', '2024-01-01'));
    await until('the edit', async () => (await blog.request('/api/blog/posts/first')).json?.title === 'First, edited');

    await rename(path.join(dir, 'second.md'), path.join(dir, 'third.md'));
    await until('the rename', async () => (await blog.request('/api/blog/posts/third')).status === 200);
    assert.deepEqual((await blog.request('/api/blog/posts/second')).json, { error: 'not_found' });

    await rm(path.join(dir, 'third.md'));
    await until('the deletion', async () => (await blog.request('/api/blog/posts/third')).status === 404);
    assert.deepEqual(await titles(), ['In a folder', 'First, edited']);
    assert.deepEqual((await blog.request('/health')).json, { status: 'ok', posts: 2 });
  });

  it('picks up a new folder with index.md, edits inside folders, translations and folder removal', async () => {
    await mkdir(path.join(dir, 'fresh'));
    await writeFile(path.join(dir, 'fresh', 'index.md'), post('Fresh folder', '2024-03-01'));
    await until('the new folder post', async () => (await blog.request('/api/blog/posts/fresh')).status === 200);

    await writeFile(path.join(dir, 'folder', 'index.md'), post('In a folder, edited', '2024-01-02'));
    await until('the edit inside a folder', async () => (await blog.request('/api/blog/posts/folder')).json?.title === 'In a folder, edited');

    await writeFile(path.join(dir, 'folder', 'index.fr.md'), post('Dans un dossier', '2024-01-02'));
    await until('the translation', async () => (await blog.request('/api/blog/posts/folder')).json?.translations?.fr === '/api/blog/posts/folder?lang=fr');

    await rm(path.join(dir, 'fresh'), { recursive: true });
    await until('the removed folder', async () => (await blog.request('/api/blog/posts/fresh')).status === 404);
  });

  it('a post that breaks is dropped with one warning; the others stay; fixing it brings it back', async () => {
    await replaceFile(path.join(dir, 'first.md'), '+++\ntitle = "No date any more"\n+++\n');
    await until('the broken post to go', async () => (await blog.request('/api/blog/posts/first')).status === 404);
    assert.deepEqual(await titles(), ['In a folder']);
    const warnings = () => blog.logs.lines().filter((line) => line.event === 'post_skipped' && line.file === 'first.md');
    assert.equal(warnings().length, 1);
    assert.equal(warnings()[0]?.reason, 'date is required');

    await replaceFile(path.join(dir, 'first.md'), post('First again'));
    await until('the fixed post', async () => (await blog.request('/api/blog/posts/first')).json?.title === 'First again');
    assert.equal(warnings().length, 1, 'the warning was not repeated');
  });

  it('ETags change with the content, so caches see the edit', async () => {
    const before = (await blog.request('/api/blog/posts')).headers.etag;
    await writeFile(path.join(dir, 'first.md'), post('First, changed'));
    await until('the new ETag', async () => (await blog.request('/api/blog/posts')).headers.etag !== before);
    const stale = await blog.request('/api/blog/posts', { headers: { 'if-none-match': String(before) } });
    assert.equal(stale.status, 200);
  });
});
