// The load cache in data_dir: a restart takes unchanged files from it and reads only changed ones; a cache that is
// corrupt, for another content_dir or site, or of the wrong shape is ignored; and answers are the same with it.
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostLibrary } from '../../src/blog/content/library.js';
import { createLoadCacheStore, decodeCache, encodeCache, type CacheRecord, type LoadCacheKey } from '../../src/blog/content/load-cache.js';
import type { PostVersion } from '../../src/blog/content/post.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { FIXTURE_POSTS, parseContext, startBlog } from './fixture.js';

let dir: string;
let remove: () => Promise<void>;
let contentDir: string;
let cacheFile: string;
beforeEach(async () => {
  ({ dir, remove } = await createTempDir('blog-load-cache'));
  contentDir = path.join(dir, 'posts');
  cacheFile = path.join(dir, 'data', 'blog-cache.json');
  await cp(FIXTURE_POSTS, contentDir, { recursive: true });
});
afterEach(async () => {
  await remove();
});

const key = (): LoadCacheKey => ({ version: '1.0.0', contentDir, defaultLanguage: 'en', baseUrl: 'https://example.com', unicode: '15.1' });

/** Everything the API reads of a post, the body and search text included. */
const shown = (post: PostVersion) => ({ ...post, source: undefined, excerpt: post.excerpt, readingTime: post.readingTime, digest: post.digest, body: post.body, searchText: post.searchText });

async function load(cacheKey = key()) {
  const logs = captureLogs();
  const library = createPostLibrary(contentDir, parseContext(), logs.logger, createLoadCacheStore(cacheFile, cacheKey));
  const result = await library.refresh();
  return { library, result, warnings: logs.lines().filter((line) => line.level === 40).map((line) => `${line.file}: ${line.reason}`) };
}

describe('blog load cache', () => {
  it('lets a restart take every unchanged file from the cache, with the same posts and the same warnings', async () => {
    const first = await load();
    assert.equal(first.result.filesFromCache, 0);
    const expected = first.result.posts.map(shown);
    await first.library.saveCache();

    const second = await load();
    assert.equal(second.result.filesRead, 0);
    assert.equal(second.result.filesFromCache, first.result.filesRead);
    assert.deepEqual(second.result.posts.map(shown), expected);
    assert.deepEqual(second.result.skipped, first.result.skipped);
    assert.deepEqual(second.warnings, first.warnings);
  });

  it('reads its file through a window of any size as it reads it whole, and lets it go when released', async () => {
    const first = await load();
    await first.library.saveCache();
    const whole = decodeCache(await readFile(cacheFile), key());
    const files = first.result.posts.map((post) => post.file);
    assert.ok(files.length > 5);
    for (const windowBytes of [1, 7, 64, 4096]) {
      const saved = createLoadCacheStore(cacheFile, key(), windowBytes).read();
      // Asked for out of the file's order too: the window goes back as well as forward.
      for (const file of [...files, ...[...files].reverse()]) assert.deepEqual(saved.get(file), whole.get(file), `${file}, window of ${windowBytes}`);
      saved.release!();
      assert.equal(saved.get(files[0]!), undefined, 'nothing once released');
      assert.equal(saved.has(files[0]!), true);
    }
  });

  it('leaves no file open once the refresh that read records from it is done', async () => {
    const first = await load();
    await first.library.saveCache();
    const second = await load();
    assert.ok(second.result.filesFromCache > 0);
    assert.ok(!openFiles().includes(cacheFile), 'the load cache is closed');
  });

  it('reads a file again when it changed since the cache was written', async () => {
    const first = await load();
    await first.library.saveCache();
    const file = path.join(contentDir, first.result.posts[0]!.file);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^title\s*[=:].*$/m, (line) => (line.includes('=') ? 'title = "Changed"' : 'title: "Changed"')));

    const second = await load();
    assert.equal(second.result.filesRead, 1);
    assert.equal(second.result.posts.find((post) => post.file === first.result.posts[0]!.file)!.title, 'Changed');
  });

  it('ignores a corrupt cache, and a cache written for another content_dir or site', async () => {
    const first = await load();
    const expected = first.result.posts.map(shown);
    await first.library.saveCache();
    const written = await readFile(cacheFile, 'utf8');

    const other = await load({ ...key(), baseUrl: 'https://other.example' });
    assert.equal(other.result.filesFromCache, 0, 'cover URLs depend on base_url: nothing is taken');

    await writeFile(cacheFile, written.slice(0, written.length / 2));
    const corrupt = await load();
    assert.equal(corrupt.result.filesFromCache, 0);
    assert.deepEqual(corrupt.result.posts.map(shown), expected);
  });

  it('reads the file of a record that is not of the right shape, and takes the others', async () => {
    const first = await load();
    await first.library.saveCache();
    const cache = JSON.parse(await readFile(cacheFile, 'utf8'));
    const [broken] = Object.keys(cache.files);
    cache.files[broken!].outcome.post = { ...cache.files[broken!].outcome.post, title: 42 };
    await writeFile(cacheFile, JSON.stringify(cache));

    const second = await load();
    assert.equal(second.result.filesRead, 1);
    assert.deepEqual(second.result.posts.map(shown), first.result.posts.map(shown));
  });

  it('reads the records of its own layout one by one: odd file names, and a damaged line costs only its file', async () => {
    const names = ['plain.md', 'quote"d.md', 'back\\slash\\.md', 'colon":{x}.md', 'été/index.fr.md', 'last.md'];
    const records = names.map((name, at): [string, CacheRecord] => [name, { stamp: `stamp ${at}`, outcome: { ok: false, reason: `reason ${name}` } }]);
    let text = '';
    for await (const piece of encodeCache(records.map(([name, record]) => [name, () => record]), key(), async () => {})) text += piece;
    const all = decodeCache(Buffer.from(text), key());
    for (const [name, record] of records) assert.deepEqual(all.get(name), record, name);
    assert.equal(all.get('missing.md'), undefined);
    assert.deepEqual(JSON.parse(text).files['colon":{x}.md'], records[3]![1], 'still one JSON document');

    const lines = text.split('\n');
    lines[2] = lines[2]!.slice(0, 20);
    const damaged = decodeCache(Buffer.from(lines.join('\n')), key());
    assert.equal(damaged.get('quote"d.md'), undefined);
    assert.deepEqual(damaged.get('last.md'), records[5]![1]);

    assert.equal(decodeCache(Buffer.from(text), { ...key(), unicode: '16.0' }).get('plain.md'), undefined, 'another key: nothing');
    assert.equal(decodeCache(Buffer.from(text.slice(0, -6)), key()).get('plain.md'), undefined, 'cut short: nothing');
  });

  it('gives the same answers with a cache as without one', async () => {
    const urls = ['/api/blog/posts?limit=100', '/api/blog/posts?q=alpha', '/api/blog/tags', '/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml'];
    const answers = async () => {
      const blog = await startBlog(contentDir, { deps: { loadCacheFile: cacheFile, clock: () => new Date(Date.UTC(2026, 0, 1)) } });
      try {
        // A search asked before the index is built answers from what a time budget let it look at, flagged partial
        // (docs/blog.md "Start-up and the load cache"): the answers compared are those of the ready index.
        await waitFor('the search index', async () => ((await blog.request('/api/blog/posts?q=alpha')).json.partial ? undefined : true), 30_000);
        const list = await blog.request('/api/blog/posts?limit=100');
        const details = list.json.posts.map((post: { url: string }) => post.url);
        const bodies: string[] = [];
        for (const url of [...urls, ...details]) bodies.push((await blog.request(url)).body);
        return bodies;
      } finally {
        await blog.close();
      }
    };
    const withoutCache = await answers();
    const cache = JSON.parse(await readFile(cacheFile, 'utf8'));
    assert.ok(Object.keys(cache.files).length > 0, 'the first start left a cache');
    const withCache = await answers();
    assert.deepEqual(withCache, withoutCache);
  });
});

/** The paths this process has open (Linux). */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return ''; // the folder's own descriptor, closed by now
    }
  });
}
