// A `q` request that arrives before the q index is ready waits for it (catalog/search-indexer.ts whenIndexed),
// while other requests are answered between the build's steps. Steps are cut by time; here they are cut after
// every post (searchStepMs 0), whatever the machine's speed.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { startBlog } from './fixture.js';

/** Posts for the scan to take many slices, and the index build many steps. */
const POSTS = 400;
const withNeedle = (number: number) => number % 7 === 3;

let dir: string;
let remove: () => Promise<void>;
before(async () => {
  ({ dir, remove } = await createTempDir('blog-scan'));
  for (let number = 0; number < POSTS; number += 1) {
    const day = new Date(Date.UTC(2020, 0, 1) + number * 86_400_000).toISOString().slice(0, 10);
    const words = withNeedle(number) ? 'a haystack with a Needle in it' : 'a haystack and nothing else';
    await writeFile(path.join(dir, `post-${number}.md`), `+++\ntitle = "Post ${number}"\ndate = ${day}\n+++\n\nPost ${number}: ${words}.\n`);
  }
});
after(async () => {
  await remove();
});

const SEARCH = '/api/blog/posts?q=NEEDLE&limit=100';

describe('q before the index is ready', () => {
  let scannedBody = '';

  it('answers a request sent after the search while the search waits for the index, then the search itself', async () => {
    const blog = await startBlog(dir, { deps: { searchStepMs: 0 } });
    try {
      assert.ok(!blog.logs.lines().some((line) => line.event === 'blog_search_indexed'), 'the index is not ready yet');
      const order: string[] = [];
      const search = blog.request(SEARCH).then((response) => (order.push('search'), response));
      const site = blog.request('/api/blog/site').then((response) => (order.push('site'), response));
      const [found] = await Promise.all([search, site]);
      assert.deepEqual(order, ['site', 'search']);
      const expected = [...Array(POSTS).keys()].filter(withNeedle).reverse();
      assert.equal(found.json.total, expected.length);
      assert.deepEqual(
        found.json.posts.map((post: { slug: string }) => post.slug),
        expected.slice(0, 100).map((number) => `post-${number}`),
      );
      scannedBody = found.body;
    } finally {
      await blog.close();
    }
  });

  it('gives the same answer once the index is ready, byte for byte', async () => {
    const blog = await startBlog(dir, { deps: { searchStepMs: 0 } });
    try {
      await waitFor('the q index', () => (blog.logs.lines().some((line) => line.event === 'blog_search_indexed') ? true : undefined), 10_000);
      assert.equal((await blog.request(SEARCH)).body, scannedBody);
    } finally {
      await blog.close();
    }
  });
});
