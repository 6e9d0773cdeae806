// `q` is complete from the first query (docs/blog.md "Start-up and the load cache"): a query that comes before the
// q index is ready waits for it, and its total is what the corpus holds. The blog starts with its defaults on a
// corpus large enough for the build to take many steps, and is asked at once.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCatalog, groupBySlug } from '../../src/blog/catalog/catalog.js';
import { selectPage } from '../../src/blog/catalog/query.js';
import { createSearchIndexer } from '../../src/blog/catalog/search-indexer.js';
import { createPostLibrary } from '../../src/blog/content/library.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { blogConfig, parseContext, startBlog } from './fixture.js';

const POSTS = 1500;
const withNeedle = (number: number) => number % 3 !== 1;
const NEEDLES = [...Array(POSTS).keys()].filter(withNeedle).length;

let dir: string;
let remove: () => Promise<void>;
before(async () => {
  ({ dir, remove } = await createTempDir('blog-search-at-start'));
  await mkdir(path.join(dir, 'posts'));
  for (let number = 0; number < POSTS; number += 1) {
    const day = new Date(Date.UTC(2020, 0, 1) + number * 86_400_000).toISOString().slice(0, 10);
    const words = withNeedle(number) ? `a Needle in post ${number}` : `nothing in post ${number}`;
    await writeFile(path.join(dir, 'posts', `post-${number}.md`), `+++\ntitle = "Post ${number}"\ndate = ${day}\n+++\n\n${words}.\n`);
  }
});
after(async () => {
  await remove();
});

describe('q right after a first start', () => {
  it('answers the first query completely, whatever the index build has done by then', async () => {
    const blog = await startBlog(path.join(dir, 'posts'), { deps: { searchStepMs: 0 } });
    try {
      assert.ok(!blog.logs.lines().some((line) => line.event === 'blog_search_indexed'), 'the index is not ready yet');
      const [first, second] = await Promise.all([blog.request('/api/blog/posts?q=NEEDLE&limit=5'), blog.request('/api/blog/posts?q=nothing&page=2')]);
      assert.equal(first.json.total, NEEDLES);
      assert.equal(first.json.partial, undefined);
      assert.equal(first.json.has_next, true);
      const newest = [...Array(POSTS).keys()].reverse().filter(withNeedle).slice(0, 5);
      assert.deepEqual(first.json.posts.map((post: { slug: string }) => post.slug), newest.map((number) => `post-${number}`));
      assert.match(String(first.headers['cache-control']), /^public, max-age=/);
      assert.equal(second.json.total, POSTS - NEEDLES);
      assert.equal(second.json.page, 2);
    } finally {
      await blog.close();
    }
  });

  it('answers completely with the default step times too', async () => {
    const blog = await startBlog(path.join(dir, 'posts'));
    try {
      const answer = await blog.request('/api/blog/posts?q=needle&limit=1');
      assert.equal(answer.json.total, NEEDLES);
      assert.equal(answer.json.partial, undefined);
    } finally {
      await blog.close();
    }
  });
});

describe('the posts\' words for q', () => {
  it('are read as the posts are loaded: the index build reads no post file', async () => {
    const contentDir = path.join(dir, 'once');
    await mkdir(contentDir);
    for (let number = 0; number < 30; number += 1) {
      const words = withNeedle(number) ? `Needle ${number}` : `hay ${number}`;
      await writeFile(path.join(contentDir, `post-${number}.md`), `+++\ntitle = "Post ${number}"\ndate = 2024-01-01\n+++\n\n${words}\n`);
    }
    const config = blogConfig(contentDir);
    const indexer = createSearchIndexer({ onError: assert.fail });
    const library = createPostLibrary(contentDir, parseContext(config), captureLogs().logger, undefined, indexer.takeText);
    await indexer.takeWordsFile();
    const { posts } = await library.refresh();
    // Gone from the disk before the build: a build that read them would find no words.
    await rm(contentDir, { recursive: true });
    const catalog = buildCatalog(groupBySlug(posts), config.site!, config.blog!, Date.now());
    indexer.index(catalog);
    await indexer.idle();
    const terms = ['needle'];
    const page = selectPage(catalog.primaries, { lang: undefined, tag: undefined, terms, page: 1, limit: 100 }, indexer.indexFor(catalog));
    assert.equal(page.total, [...Array(30).keys()].filter(withNeedle).length);
    assert.equal(indexer.textsRead(), 30, 'every text was read once, as it was loaded');
    await indexer.close();
  });
});
