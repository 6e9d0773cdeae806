// A `q` asked before the index is ready takes a bounded time (docs/blog.md "Start-up and the load cache",
// catalog/query.ts selectPageInSlices with answerWithin): the scan of the posts, newest first, ends once the page
// and whether a next one exists are known, or when the time is up, and the page is then partial: its posts are the
// complete answer's, as far as they go. Time is a fake clock here, moved by the scan's own steps.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CatalogEntry } from '../../src/blog/catalog/catalog.js';
import { containsEveryTerm, type Searchable } from '../../src/blog/catalog/plain-search.js';
import { SMALL_REST, selectPage, selectPageInSlices, type PostsQuery, type SliceOptions } from '../../src/blog/catalog/query.js';
import { buildSearchIndex } from '../../src/blog/catalog/search-index.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { startBlog } from './fixture.js';

/** `count` candidates, newest first; those `withNeedle` holds contain "needle". */
function candidatesOf(count: number, withNeedle: (at: number) => boolean): CatalogEntry[] {
  return Array.from({ length: count }, (_, at) => ({ post: { searchText: `post ${at}${withNeedle(at) ? ' a needle' : ''}` }, tagKeys: [] }) as unknown as CatalogEntry);
}

const query = (page: number, limit: number): PostsQuery => ({ lang: undefined, tag: undefined, terms: ['needle'], page, limit });

/** A scan that counts the posts it looks at; `tick` ms pass on the fake clock per post looked at and per pause. */
function scan(options: { tick?: number; pauseTick?: number; held?: () => boolean; slow?: () => boolean; indexNow?: SliceOptions['indexNow'] } = {}) {
  let time = 0;
  let looked = 0;
  let pauses = 0;
  const slice: SliceOptions = {
    matches: (post: Searchable) => {
      looked += 1;
      time += options.tick ?? 0;
      return containsEveryTerm(post, ['needle']);
    },
    held: options.held,
    slow: options.slow,
    pause: async () => {
      pauses += 1;
      time += options.pauseTick ?? 0;
    },
    indexNow: options.indexNow ?? (() => null),
    stepMs: 1_000_000,
    answerWithin: { ms: 50, now: () => time },
  };
  return { slice, looked: () => looked, pauses: () => pauses };
}

describe('a q before the index is ready, in a bounded time', () => {
  it('ends once the page and a next one are known, with the complete answer\'s posts, when many are left', async () => {
    const candidates = candidatesOf(SMALL_REST + 500, (at) => at % 3 === 0);
    const complete = selectPage(candidates, query(2, 10), null);
    const counted = scan();
    const page = await selectPageInSlices(candidates, query(2, 10), counted.slice);
    // 21 matches (the 2nd page of 10, and one more) lie in the first 61 posts.
    assert.equal(counted.looked(), 61);
    assert.deepEqual(page, { ...complete, total: 21, has_next: true, partial: true });
    assert.ok(complete.total > 21);
  });

  it('goes on to the complete answer when few posts are left', async () => {
    const candidates = candidatesOf(SMALL_REST + 40, (at) => at % 3 === 0);
    const counted = scan();
    const page = await selectPageInSlices(candidates, query(1, 20), counted.slice);
    assert.equal(counted.looked(), candidates.length);
    assert.deepEqual(page, selectPage(candidates, query(1, 20), null));
    assert.equal(page.partial, undefined);
  });

  it('answers with what it found when the time is up', async () => {
    const candidates = candidatesOf(3 * SMALL_REST, (at) => at % 20 === 7);
    // A millisecond a post: 50 posts in the time, holding 3 matches.
    const counted = scan({ tick: 1 });
    const page = await selectPageInSlices(candidates, query(1, 20), counted.slice);
    assert.equal(counted.looked(), 50);
    const complete = selectPage(candidates, query(1, 20), null);
    assert.deepEqual(page, { ...complete, total: 3, has_next: true, partial: true, entries: complete.entries.slice(0, 3) });
  });

  it('waits while posts could only be judged by their texts, for half the time at most, then looks at them', async () => {
    const candidates = candidatesOf(SMALL_REST, (at) => at % 20 === 7);
    const counted = scan({ pauseTick: 5, held: () => true, slow: () => true });
    const page = await selectPageInSlices(candidates, query(1, 20), counted.slice);
    // Held for 25 ms (5 pauses), then every post looked at within the time: a complete answer.
    assert.equal(counted.pauses(), 5);
    assert.equal(counted.looked(), candidates.length);
    assert.deepEqual(page, selectPage(candidates, query(1, 20), null));
  });

  it('does not wait for an index that is near while posts are judged by their words', async () => {
    const candidates = candidatesOf(SMALL_REST, (at) => at % 20 === 7);
    const counted = scan({ pauseTick: 5, held: () => true, slow: () => false });
    await selectPageInSlices(candidates, query(1, 20), counted.slice);
    assert.equal(counted.pauses(), 0);
  });

  it('takes the index\'s answer when the index is ready while it waits', async () => {
    const candidates = candidatesOf(SMALL_REST + 500, (at) => at % 3 === 0);
    const index = buildSearchIndex(candidates.map((entry) => entry.post as Searchable));
    let asked = 0;
    const counted = scan({ slow: () => true, indexNow: () => (asked++ >= 2 ? index : null) });
    const page = await selectPageInSlices(candidates, query(3, 10), counted.slice);
    assert.equal(counted.looked(), 0);
    assert.deepEqual(page, selectPage(candidates, query(3, 10), null));
  });
});

describe('a partial q answer over HTTP', () => {
  const POSTS = SMALL_REST + 100;
  let dir: string;
  let remove: () => Promise<void>;
  before(async () => {
    ({ dir, remove } = await createTempDir('blog-partial'));
    await mkdir(path.join(dir, 'posts'));
    for (let number = 0; number < POSTS; number += 1) {
      const day = new Date(Date.UTC(2020, 0, 1) + number * 86_400_000).toISOString().slice(0, 10);
      await writeFile(path.join(dir, 'posts', `post-${number}.md`), `+++\ntitle = "Post ${number}"\ndate = ${day}\n+++\n\nA needle in post ${number}.\n`);
    }
  });
  after(async () => {
    await remove();
  });

  it('says so, is kept by no cache, and lists what the complete answer lists; the complete one follows once the index is ready', async () => {
    // The index build pauses after every post: it is far from ready when the first q comes.
    const blog = await startBlog(path.join(dir, 'posts'), { deps: { searchStepMs: 0, searchAnswerMs: 600_000 } });
    try {
      const partial = await blog.request('/api/blog/posts?q=NEEDLE&limit=5');
      assert.equal(partial.json.partial, true);
      assert.equal(partial.json.has_next, true);
      assert.ok(partial.json.total >= 6 && partial.json.total < POSTS, `total ${partial.json.total}`);
      assert.equal(partial.headers['cache-control'], 'no-store');
      assert.equal(partial.headers.etag, undefined);
      const newest = [...Array(5).keys()].map((at) => `post-${POSTS - 1 - at}`);
      assert.deepEqual(partial.json.posts.map((post: { slug: string }) => post.slug), newest);

      await waitFor('the q index', () => (blog.logs.lines().some((line) => line.event === 'blog_search_indexed') ? true : undefined), 20_000);
      const complete = await blog.request('/api/blog/posts?q=NEEDLE&limit=5');
      assert.equal(complete.json.partial, undefined);
      assert.equal(complete.json.total, POSTS);
      assert.deepEqual(complete.json.posts.map((post: { slug: string }) => post.slug), newest);
      assert.match(String(complete.headers['cache-control']), /^public, max-age=/);
    } finally {
      await blog.close();
    }
  });
});
