// Answers are computed once per content version, and unchanged posts keep their answers across versions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCatalog, groupBySlug, findPost } from '../../src/blog/catalog/catalog.js';
import { parsePostsQuery } from '../../src/blog/catalog/query.js';
import { buildSearchIndex, type SearchIndex } from '../../src/blog/catalog/search-index.js';
import { createResponseFactory } from '../../src/blog/http/prepared-response.js';
import { buildSnapshot, createSnapshotMemo, type SnapshotTools } from '../../src/blog/http/snapshot.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { parsePostFile } from '../../src/blog/content/parse-post.js';
import { loadCatalog, parseContext } from './fixture.js';

const query = (raw: Record<string, string>) => {
  const parsed = parsePostsQuery(raw);
  assert.ok(parsed.ok);
  return parsed.query;
};

describe('snapshots', () => {
  it('compute each answer once: the same query and post give the very same prepared response', async () => {
    const { catalog } = await loadCatalog();
    let renders = 0;
    const markdown = createMarkdownTools();
    const tools: SnapshotTools = { respond: createResponseFactory(60), render: (body) => (renders++, markdown.render(body)), memo: createSnapshotMemo() };
    const snapshot = buildSnapshot(catalog, tools, new Date(0));
    assert.equal(renders, 0, 'nothing is rendered before a feed or a detail is asked for');
    assert.equal(snapshot.rss, snapshot.rss);
    assert.equal(snapshot.sitemap, snapshot.sitemap);
    assert.equal(snapshot.tags, snapshot.tags);
    assert.equal(snapshot.jsonFeed, snapshot.jsonFeed);
    const rendersForFeeds = renders;
    assert.equal(rendersForFeeds, 10, 'the feeds render their posts once, for RSS and JSON Feed together');

    assert.equal(snapshot.posts(query({ q: 'alpha' })), snapshot.posts(query({ q: 'ALPHA', page: '1' })));
    assert.equal(snapshot.posts(query({})), snapshot.posts(query({ limit: '20' })));
    const found = findPost(catalog, 'alpha', undefined);
    assert.ok(found.kind === 'found');
    assert.equal(snapshot.detail(found.entry), snapshot.detail(found.entry));
    assert.equal(renders, rendersForFeeds, 'a post in the feeds is not rendered again for its detail');
  });

  it('keep the answers of unchanged posts when another post changes', async () => {
    const { catalog, posts, config } = await loadCatalog();
    const tools: SnapshotTools = { respond: createResponseFactory(60), render: createMarkdownTools().render, memo: createSnapshotMemo() };
    const first = buildSnapshot(catalog, tools, new Date(0));
    const alpha = findPost(catalog, 'alpha', undefined);
    const beta = findPost(catalog, 'beta', undefined);
    assert.ok(alpha.kind === 'found' && beta.kind === 'found');
    const alphaDetail = first.detail(alpha.entry);
    const betaDetail = first.detail(beta.entry);

    // beta.md "edited": a new PostVersion object for it, the same objects for every other file.
    const edited = posts.map((post) =>
      post.file === 'beta/index.md'
        ? { ...post, title: 'Beta, edited', body: post.body, excerpt: post.excerpt, readingTime: post.readingTime, digest: post.digest, searchText: post.searchText }
        : post,
    );
    const nextCatalog = buildCatalog(groupBySlug(edited), config.site!, config.blog!, Date.now(), catalog);
    const second = buildSnapshot(nextCatalog, tools, new Date(0));
    const alphaAgain = findPost(nextCatalog, 'alpha', undefined);
    const betaAgain = findPost(nextCatalog, 'beta', undefined);
    assert.ok(alphaAgain.kind === 'found' && betaAgain.kind === 'found');
    assert.equal(alphaAgain.entry, alpha.entry, 'the unchanged slug keeps its catalog entry');
    assert.equal(second.detail(alphaAgain.entry), alphaDetail);
    assert.notEqual(second.detail(betaAgain.entry), betaDetail);
    assert.match(second.detail(betaAgain.entry).answer.body!.toString(), /"title":"Beta, edited"/);
    assert.notEqual(second.tags, undefined);
  });

  it('answer q after an edit from the index built before it, until their own is ready, as their own would', async () => {
    const { catalog, posts, config } = await loadCatalog();
    const edited = posts.map((post) => (post.file === 'beta/index.md' ? { ...post, searchText: `${post.searchText} zanzibar` } : post));
    const nextCatalog = buildCatalog(groupBySlug(edited), config.site!, config.blog!, Date.now(), catalog);
    const earlier = buildSearchIndex(catalog.published.map((entry) => entry.post));
    const own = buildSearchIndex(nextCatalog.published.map((entry) => entry.post));
    const base = { respond: createResponseFactory(60), render: createMarkdownTools().render };
    const meanwhile = buildSnapshot(nextCatalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => null, latestSearchIndex: () => earlier }, new Date(0));
    const ready = buildSnapshot(nextCatalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => own }, new Date(0));
    for (const q of ['zanzibar', 'beta', 'alpha', 'e']) {
      const answer = meanwhile.posts(query({ q }));
      assert.ok(!(answer instanceof Promise), `q=${q} is answered at once, not by a scan of every post`);
      const expected = ready.posts(query({ q }));
      assert.ok(!(expected instanceof Promise));
      assert.equal(answer.answer.body!.toString(), expected.answer.body!.toString(), `q=${q}`);
    }
    assert.match(String((meanwhile.posts(query({ q: 'zanzibar' })) as { answer: { body: Buffer } }).answer.body), /"total":1/);

    // An index of other posts altogether: every post is one it lacks, read one by one, with the same answer.
    const unrelated = buildSearchIndex(Array.from({ length: 10 }, () => ({ searchText: 'other' })));
    const apart = buildSnapshot(nextCatalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => null, latestSearchIndex: () => unrelated }, new Date(0));
    const answer = apart.posts(query({ q: 'e' }));
    assert.ok(!(answer instanceof Promise));
    assert.equal(answer.answer.body!.toString(), (ready.posts(query({ q: 'e' })) as typeof answer).answer.body!.toString());
  });

  it('wait for the index of their own for q when the index built last lacks more than 256 of the candidates', async () => {
    const { config } = await loadCatalog();
    const context = parseContext(config);
    const many = Array.from({ length: 300 }, (_, at) => {
      const outcome = parsePostFile(`post-${at}.md`, `+++\ntitle = "Post ${at}"\ndate = 2024-01-01\n+++\nWords ${at % 3 === 0 ? 'needle' : 'hay'}.\n`, context);
      assert.ok(outcome.ok);
      return outcome.post;
    });
    const catalog = buildCatalog(groupBySlug(many), config.site!, config.blog!, Date.now());
    const base = { respond: createResponseFactory(60), render: createMarkdownTools().render };
    const lacking = (count: number) => buildSearchIndex(catalog.published.slice(count).map((entry) => entry.post));
    let built: SearchIndex | null = null;
    let settle = () => {};
    const whenIndexed = () => new Promise<void>((resolve) => (settle = resolve));
    const near = buildSnapshot(catalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => null, latestSearchIndex: () => lacking(256), whenIndexed }, new Date(0));
    const far = buildSnapshot(catalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => built, latestSearchIndex: () => lacking(257), whenIndexed }, new Date(0));
    const nearAnswer = near.posts(query({ q: 'needle' }));
    const farAnswer = far.posts(query({ q: 'needle' }));
    assert.ok(!(nearAnswer instanceof Promise), '256 lacking: answered from the index at once');
    assert.ok(farAnswer instanceof Promise, '257 lacking: the query waits for the index');
    assert.equal(far.posts(query({ q: 'needle' })), farAnswer, 'the same query asked meanwhile waits with it');
    built = lacking(0);
    settle();
    assert.equal((await farAnswer).answer.body!.toString(), nearAnswer.answer.body!.toString());
    assert.match(nearAnswer.answer.body!.toString(), /"total":100/);
    // With no build coming, every candidate is looked at.
    const none = buildSnapshot(catalog, { ...base, memo: createSnapshotMemo(), searchIndexOf: () => null, latestSearchIndex: () => lacking(257), whenIndexed: async () => {} }, new Date(0));
    assert.equal((await none.posts(query({ q: 'needle' }))).answer.body!.toString(), nearAnswer.answer.body!.toString());
  });

  it('keep at most 1,000 post details, the least recently read going first', async () => {
    const { catalog } = await loadCatalog();
    const memo = createSnapshotMemo();
    const snapshot = buildSnapshot(catalog, { respond: createResponseFactory(60), render: createMarkdownTools().render, memo }, new Date(0));
    const entry = catalog.published[0]!;
    const first = snapshot.detail(entry);
    // Stand-ins for 1,000 other details read since.
    for (let other = 0; other < 1000; other += 1) memo.details.set({ ...entry }, first);
    assert.equal(memo.details.size, 1000);
    assert.notEqual(snapshot.detail(entry), first, 'prepared again once it left the cache');
    assert.deepEqual(snapshot.detail(entry).answer.body, first.answer.body);
  });
});
