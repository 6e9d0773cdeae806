// A post the answering index does not hold (search-index.ts createTermMatcher) is judged by its words, and words
// the store has not got yet are read from the post's text and kept, so that the build, which takes them as they
// are, reads no text twice; while the words file is being taken in, posts are judged by their text and the store is
// left alone. The index answers as soon as its lists are laid out, before the trigram index over its words is built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Catalog } from '../../src/blog/catalog/catalog.js';
import { containsEveryTerm, type Searchable } from '../../src/blog/catalog/plain-search.js';
import { searchTerms } from '../../src/blog/catalog/search.js';
import { adoptSavedWords, buildSearchIndex, createTermMatcher, createWordStore, findPositions, indexSteps } from '../../src/blog/catalog/search-index.js';
import { createSearchIndexer } from '../../src/blog/catalog/search-indexer.js';
import { readSearchWords } from '../../src/blog/catalog/search-words-file.js';
import { foldCase } from '../../src/blog/text/fold-case.js';
import { encodedWords, postText as text, searchQuery as query } from './search-samples.js';

const KEY = { version: '1.0.0' };

/** A post that counts how often its text is read. */
interface CountedPost extends Searchable {
  readonly text: string;
  reads: number;
}

function countedPost(key: string, body: string): CountedPost {
  const text = foldCase(body);
  return {
    text,
    reads: 0,
    searchKey: key,
    get searchText() {
      this.reads += 1;
      return text;
    },
  };
}

/** What the plain scan answers, without counting a read. */
function expected(posts: readonly CountedPost[], terms: readonly string[]): number[] {
  const positions: number[] = [];
  posts.forEach((post, position) => {
    if (terms.every((term) => post.text.includes(term))) positions.push(position);
  });
  return positions;
}

const encoded = (index: ReturnType<typeof buildSearchIndex>) => encodedWords(index, KEY);

describe('q scanned by words before the index is ready', () => {
  it('answers as the plain scan between any two steps of a build, and no text is read twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 10 }),
        fc.array(text, { maxLength: 5 }),
        fc.array(fc.tuple(query, fc.array(fc.nat(), { maxLength: 6 })), { maxLength: 12 }),
        fc.array(query, { minLength: 1, maxLength: 4 }),
        async (indexedTexts, newerTexts, scans, queries) => {
          const indexed = indexedTexts.map((body, at) => countedPost(`p${at}.md\n1`, body));
          // A newer catalog's posts, which this build does not index: scans of them number words the build never sees.
          const newer = newerTexts.map((body, at) => countedPost(`new${at}.md\n1`, `${body} zebra${at}`));
          const everyPost = [...indexed, ...newer];
          const store = createWordStore();
          const steps = indexSteps(indexed, undefined, store, () => true);
          let step = steps.next();
          for (const [q, picks] of scans) {
            const terms = searchTerms(q);
            const matches = createTermMatcher(store, terms, () => true);
            for (const pick of picks) {
              if (everyPost.length === 0) break;
              const post = everyPost[pick % everyPost.length]!;
              assert.equal(matches(post), terms.every((term) => post.text.includes(term)), `q=${JSON.stringify(q)}`);
            }
            if (!step.done) step = steps.next();
          }
          while (!step.done) step = steps.next();
          const index = step.value;
          assert.equal(index.vocabulary.texts.length, index.offsets.length - 1, 'the words found by trigrams are the words of these posts');
          for (const q of queries) assert.deepEqual(findPositions(index, searchTerms(q)), expected(indexed, searchTerms(q)), q);
          for (const post of everyPost) assert.ok(post.reads <= 1, `${post.searchKey} read ${post.reads} times`);
          for (const post of indexed) assert.equal(post.reads, 1, 'every indexed post read once, by the scan or the build');

          // The words file of this index, which a restart uses.
          const saved = readSearchWords(await encoded(index), KEY);
          assert.ok(saved, 'the file is used');
          assert.equal(saved.lists.size, indexed.length);
          const again = createWordStore();
          const restartedPosts = indexedTexts.map((body, at) => countedPost(`p${at}.md\n1`, body));
          assert.ok(adoptSavedWords(again, saved));
          const restarted = buildSearchIndex(restartedPosts, undefined, again);
          assert.equal(again.textsRead, 0);
          for (const q of queries) assert.deepEqual(findPositions(restarted, searchTerms(q)), expected(restartedPosts, searchTerms(q)), q);
          // Words only the newer posts hold stay in the file when they are an eighth of the index's words at most.
          const wordCount = index.offsets.length - 1;
          let unheld = 0;
          for (let word = 0; word < wordCount; word += 1) if (index.offsets[word + 1] === index.offsets[word]) unheld += 1;
          assert.equal(saved.count, 8 * unheld <= wordCount ? wordCount : wordCount - unheld, 'the words of the newer posts, kept or left out');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers from the index as soon as its lists are laid out, before its words\' trigram index is built', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.array(query, { minLength: 1, maxLength: 6 }), (texts, queries) => {
        const posts = texts.map((body, at) => countedPost(`p${at}.md\n1`, body));
        const steps = indexSteps(posts, undefined, createWordStore(), () => true);
        let step = steps.next();
        while (!step.done && step.value === undefined) step = steps.next();
        assert.ok(!step.done, 'the index is yielded before the build is done');
        const early = step.value!;
        assert.equal(early.vocabulary.texts.length, 0, 'no trigram index yet');
        for (const q of queries) assert.deepEqual(findPositions(early, searchTerms(q)), expected(posts, searchTerms(q)), q);
        while (!step.done) step = steps.next();
        assert.equal(step.value, early, 'the same index, its trigram index now built');
        assert.equal(early.vocabulary.texts.length, early.offsets.length - 1);
        for (const q of queries) assert.deepEqual(findPositions(early, searchTerms(q)), expected(posts, searchTerms(q)), q);
      }),
      { numRuns: 300 },
    );
  });

  it('judges a query of more terms than a word mask has bits (7) as the plain scan does', () => {
    const terms = Array.from({ length: 40 }, (_, at) => `w${at}x`);
    const every = countedPost('a.md\n1', terms.join(' '));
    const allButOne = countedPost('b.md\n1', terms.filter((_, at) => at !== 35).join(' '));
    const allButFirst = countedPost('c.md\n1', terms.slice(1).join(' '));
    const allButSeventh = countedPost('d.md\n1', terms.filter((_, at) => at !== 6).join(' '));
    const matches = createTermMatcher(createWordStore(), terms, () => true);
    assert.deepEqual([every, allButOne, allButFirst, allButSeventh].map((post) => matches(post)), [true, false, false, false]);
    const someTerms = createTermMatcher(createWordStore(), [...terms.slice(30, 33), 'w1', 'w1'], () => true);
    assert.deepEqual([every, allButOne, allButFirst].map((post) => someTerms(post)), [true, true, true]);
  });

  it('reads no post into the store while the words file is being taken in, so the build still uses the file', async () => {
    const bodies = ['alpha beta', 'beta gamma', 'Straße ﬁsh', 'gamma delta alpha'];
    const saved = readSearchWords(await encoded(buildSearchIndex(bodies.map((body, at) => countedPost(`p${at}.md\n1`, body)))), KEY);
    assert.ok(saved);
    const posts = bodies.map((body, at) => countedPost(`p${at}.md\n1`, body));
    const catalog = { published: posts.map((post) => ({ post })) } as unknown as Catalog;
    // The file is read over three steps; the test scans between them.
    let readSteps = 0;
    const words = {
      *read() {
        for (; readSteps < 3; readSteps += 1) yield;
        return saved;
      },
      write: async () => undefined,
    };
    const waiting: Array<() => void> = [];
    const indexer = createSearchIndexer({ words, stepMs: 0, pause: () => new Promise<void>((resolve) => waiting.push(resolve)), onError: (error) => assert.fail(String(error)) });
    indexer.index(catalog);
    for (let turn = 0; turn < 3; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(readSteps < 3, 'the words file is still being read');
      for (const q of ['alpha', 'ss', 'fi', 'beta gamma', 'zz']) {
        const terms = searchTerms(q);
        const matches = indexer.matcherFor(terms);
        for (const post of posts) assert.equal(matches(post), containsEveryTerm(post, terms), `${post.searchKey} q=${q}`);
      }
      waiting.shift()?.();
    }
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = waiting.shift();
      if (!next) break;
      next();
    }
    await indexer.idle();
    assert.notEqual(indexer.indexFor(catalog), null);
    assert.equal(indexer.textsRead(), 0, 'the build took every post from the file');
  });

  it('answers without the words\' trigram index only once that has taken earlyAnswerMs', async () => {
    const posts = Array.from({ length: 300 }, (_, at) => countedPost(`p${at}.md\n1`, `post ${at} word${at} w${at % 13}`));
    const catalog = { published: posts.map((post) => ({ post })) } as unknown as Catalog;
    for (const earlyAnswerMs of [0, Infinity]) {
      const waiting: Array<() => void> = [];
      const indexer = createSearchIndexer({ stepMs: 0, earlyAnswerMs, pause: () => new Promise<void>((resolve) => waiting.push(resolve)), onError: (error) => assert.fail(String(error)) });
      indexer.index(catalog);
      let answeredWithout = false;
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        const index = indexer.indexFor(catalog);
        if (index) answeredWithout ||= index.vocabulary.texts.length < index.offsets.length - 1;
        const next = waiting.shift();
        if (!next) break;
        next();
      }
      await indexer.idle();
      assert.equal(answeredWithout, earlyAnswerMs === 0, `earlyAnswerMs ${earlyAnswerMs}`);
      assert.deepEqual(findPositions(indexer.indexFor(catalog)!, ['w1']), expected(posts, ['w1']));
    }
  });

  it('answers, by default, only once the words\' trigram index is built', async () => {
    const posts = Array.from({ length: 300 }, (_, at) => countedPost(`p${at}.md\n1`, `post ${at} word${at} w${at % 13}`));
    const catalog = { published: posts.map((post) => ({ post })) } as unknown as Catalog;
    const waiting: Array<() => void> = [];
    const indexer = createSearchIndexer({ stepMs: 0, pause: () => new Promise<void>((resolve) => waiting.push(resolve)), onError: (error) => assert.fail(String(error)) });
    indexer.index(catalog);
    const waited = indexer.whenIndexed(catalog).then(() => indexer.indexFor(catalog));
    let pauses = 0;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const index = indexer.indexFor(catalog);
      if (index) assert.equal(index.vocabulary.texts.length, index.offsets.length - 1, 'every word is in the trigram index');
      const next = waiting.shift();
      if (!next) break;
      pauses += 1;
      next();
    }
    assert.ok(pauses > 1, 'the build paused');
    const index = await waited;
    assert.equal(index!.vocabulary.texts.length, index!.offsets.length - 1);
    assert.deepEqual(findPositions(index!, ['w1']), expected(posts, ['w1']));
  });

  it('keeps what a scan read after the file is taken in: the build reads only the changed post, and that once', async () => {
    const bodies = ['alpha beta', 'beta gamma', 'gamma delta'];
    const saved = readSearchWords(await encoded(buildSearchIndex(bodies.map((body, at) => countedPost(`p${at}.md\n1`, body)))), KEY);
    assert.ok(saved);
    const posts = [countedPost('p0.md\n1', bodies[0]!), countedPost('p1.md\n2', 'beta epsilon'), countedPost('p2.md\n1', bodies[2]!)];
    const catalog = { published: posts.map((post) => ({ post })) } as unknown as Catalog;
    const waiting: Array<() => void> = [];
    const indexer = createSearchIndexer({
      words: { *read() { return saved; }, write: async () => undefined },
      pause: () => new Promise<void>((resolve) => waiting.push(resolve)),
      onError: (error) => assert.fail(String(error)),
    });
    indexer.index(catalog);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(indexer.indexFor(catalog), null, 'the build has not run yet');
    const matches = indexer.matcherFor(['epsilon']);
    assert.deepEqual(posts.map((post) => matches(post)), [false, true, false]);
    assert.deepEqual(posts.map((post) => post.reads), [0, 1, 0], 'the unchanged posts are judged by the file\'s words');
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = waiting.shift();
      if (!next) break;
      next();
    }
    await indexer.idle();
    assert.deepEqual(posts.map((post) => post.reads), [0, 1, 0], 'the build read nothing again');
    assert.equal(indexer.textsRead(), 1);
  });
});
