// The q index in data_dir (catalog/search-words-file.ts): a restart with the same posts takes the index as it is, one
// after changes takes the words of unchanged posts from the file and reads only the others, with the same answers
// as a scan; words no post holds are left out; a file cut short, damaged, or written under another key is not used;
// and a file that cannot be written is only logged.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { buildCatalog, groupBySlug } from '../../src/blog/catalog/catalog.js';
import { containsEveryTerm, plainSearch, type Searchable } from '../../src/blog/catalog/plain-search.js';
import { selectPage } from '../../src/blog/catalog/query.js';
import { decodeInto } from '../../src/blog/catalog/posting-lists.js';
import { searchTerms } from '../../src/blog/catalog/search.js';
import { adoptSavedWords, buildSearchIndex, createWordStore, findPositions, fitsSavedIndex, savedIndexSteps, takeTermsOf, type SearchIndex } from '../../src/blog/catalog/search-index.js';
import { createSearchIndexer } from '../../src/blog/catalog/search-indexer.js';
import { createSearchWordsStore, readSearchWords } from '../../src/blog/catalog/search-words-file.js';
import { foldCase } from '../../src/blog/text/fold-case.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { FIXTURE_POSTS, loadCatalog, startBlog } from './fixture.js';
import { encodedWords, postText as text, searchQuery as query } from './search-samples.js';

const KEY = { version: '1.0.0', contentDir: '/posts', unicode: '15.1' };

const encoded = (index: SearchIndex, key: Record<string, string> = KEY) => encodedWords(index, key);

/** An index over `posts` built after adopting `file`, and how many texts it read. */
function restarted(posts: readonly Searchable[], file: Buffer): { index: SearchIndex; textsRead: number } {
  const saved = readSearchWords(file, KEY);
  assert.ok(saved, 'the file is used');
  const store = createWordStore();
  assert.ok(adoptSavedWords(store, saved));
  const index = buildSearchIndex(posts, undefined, store);
  return { index, textsRead: store.textsRead };
}

/** A post as the index sees it: its folded text, and the key of its file and stamp (none: not from a file). */
function post(key: string | undefined, text: string): Searchable {
  return { searchKey: key, searchText: foldCase(text) };
}

describe('the q index words file', () => {
  it('lets a restart read only new and changed posts, with the answers of the plain scan', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 12 }), fc.array(fc.constantFrom('keep', 'change', 'drop'), { maxLength: 12 }), fc.array(text, { maxLength: 4 }), fc.array(query, { minLength: 1, maxLength: 6 }), async (texts, fates, added, queries) => {
        const before = texts.map((body, at) => post(`p${at}.md\nstamp1`, body));
        const file = await encoded(buildSearchIndex(before));
        const after: Searchable[] = [];
        let changed = 0;
        before.forEach((old, at) => {
          const fate = fates[at] ?? 'keep';
          if (fate === 'keep') after.push(post(old.searchKey, texts[at]!));
          if (fate === 'change') after.push(post(`p${at}.md\nstamp2`, `${texts[at]!} zebra`));
          if (fate === 'change') changed += 1;
        });
        added.forEach((body, at) => after.push(post(`new${at}.md\nstamp1`, body)));
        const { index, textsRead } = restarted(after, file);
        assert.equal(textsRead, changed + added.length);
        for (const q of queries) {
          const terms = searchTerms(q);
          assert.deepEqual(findPositions(index, terms), plainSearch(after, terms), q);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out the words no post holds any more, and numbers the others as before', async () => {
    // gamma and delta are numbered first, so alpha's and beta's numbers change when they go.
    const first = buildSearchIndex([post('a.md\n1', 'gamma delta beta'), post('b.md\n1', 'alpha beta'), post('c.md\n1', 'alpha')]);
    const kept = [first.posts[1]!, first.posts[2]!];
    const second = buildSearchIndex(kept, first, first.store);
    const saved = readSearchWords(await encoded(second), KEY)!;
    assert.equal(saved.count, 2);
    assert.equal(saved.words.join(''), 'beta\nalpha\n');
    const { index, textsRead } = restarted(kept, await encoded(second));
    assert.equal(textsRead, 0);
    assert.deepEqual(findPositions(index, ['alpha']), [0, 1]);
    assert.deepEqual(findPositions(index, ['beta']), [0]);
    assert.deepEqual(findPositions(index, ['gamma']), []);
  });

  it('keeps a few words no post holds, as numbered, with the index\'s own trigram index', async () => {
    const store = createWordStore();
    // A draft read as the posts are loaded: its words are numbered, and no indexed post holds them.
    takeTermsOf(store, post('draft.md\n1', ''), foldCase('zeta'), false);
    const posts = Array.from({ length: 10 }, (_, at) => post(`p${at}.md\n1`, `alpha${at} beta${at} common`));
    const index = buildSearchIndex(posts, undefined, store);
    assert.equal(index.vocabulary.texts.length, 22);
    const saved = readSearchWords(await encoded(index), KEY)!;
    assert.equal(saved.count, 22, 'zeta stays');
    assert.deepEqual(saved.index?.vocabulary?.lists.offsets, index.vocabulary.offsets, 'the trigram index as it is');
    assert.deepEqual(saved.index?.vocabulary?.lists.bytes, index.vocabulary.bytes);
    const { index: again, textsRead } = restarted(posts, await encoded(index));
    assert.equal(textsRead, 0);
    for (const q of ['zeta', 'alpha3', 'common', 'a', 'eta']) assert.deepEqual(findPositions(again, [q]), plainSearch(posts, [q]), q);
    // Past an eighth of the words, they are left out and the trigram index is built over the others.
    for (const draft of ['eta theta iota', 'kappa lambda']) takeTermsOf(store, post(`${draft}.md\n1`, ''), foldCase(draft), false);
    const later = buildSearchIndex(posts, index, store);
    const compacted = readSearchWords(await encoded(later), KEY)!;
    assert.equal(compacted.count, 21);
    assert.ok(compacted.index?.vocabulary, 'with a trigram index of the words kept');
  });

  it('keeps no record of a post whose text is not from a file', async () => {
    const saved = readSearchWords(await encoded(buildSearchIndex([post(undefined, 'alpha'), post('b.md\n1', 'beta')])), KEY)!;
    assert.deepEqual([...saved.lists.keys()], ['b.md\n1']);
  });

  it('is not used when cut short anywhere, damaged, or written under another key', async () => {
    const file = await encoded(buildSearchIndex([post('a.md\n1', 'alpha beta été'), post('b.md\n1', 'gamma beta')]));
    assert.ok(readSearchWords(file, KEY));
    for (let length = 0; length < file.length; length += 1) assert.equal(readSearchWords(file.subarray(0, length), KEY), null, `cut at ${length}`);
    assert.equal(readSearchWords(file, { ...KEY, unicode: '16.0' }), null);
    assert.equal(readSearchWords(file, { ...KEY, extra: 'x' }), null);
    assert.equal(readSearchWords(Buffer.concat([file, Buffer.from([1])]), KEY), null, 'a byte after the last record');
    // The last list's last byte made to point past the word table.
    const pastTable = Buffer.from(file);
    pastTable[pastTable.length - 1] = 0x7f;
    assert.equal(readSearchWords(pastTable, KEY), null);
    // Any bytes after a valid first line: never a throw, and whatever is taken holds only numbers of its table.
    const header = file.subarray(0, file.indexOf(0x0a) + 1);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const saved = readSearchWords(Buffer.concat([header, bytes]), KEY);
        for (const list of saved?.lists.values() ?? []) {
          const { values, count } = decodeInto(list, 0, list.length, new Uint32Array(0));
          for (let at = 0; at < count; at += 1) assert.ok(values[at]! < saved!.count && (at === 0 || values[at]! > values[at - 1]!));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the index itself, which a restart with the very same posts takes as it is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 12 }), fc.array(query, { minLength: 1, maxLength: 6 }), async (texts, queries) => {
        const posts = texts.map((body, at) => post(`p${at}.md\nstamp1`, body));
        const saved = readSearchWords(await encoded(buildSearchIndex(posts)), KEY)!;
        assert.ok(saved.index?.vocabulary, 'the lists and the words\' trigram index are in the file');
        const again = texts.map((body, at) => post(`p${at}.md\nstamp1`, body));
        assert.ok(fitsSavedIndex(again, saved));
        const store = createWordStore();
        assert.ok(adoptSavedWords(store, saved));
        const steps = savedIndexSteps(again, saved, store, () => false);
        const step = steps.next();
        assert.ok(step.done, 'nothing is built: the index is there at once');
        assert.equal(store.textsRead, 0);
        for (const q of queries) assert.deepEqual(findPositions(step.value, searchTerms(q)), plainSearch(again, searchTerms(q)), q);
        // Any other posts, or the same in another order, have their lists laid out again.
        assert.equal(fitsSavedIndex([...again, post('new.md\n1', 'alpha')], saved), false);
        assert.equal(fitsSavedIndex(again.map((one, at) => (at === 0 ? post('p0.md\nstamp2', texts[0]!) : one)), saved), false);
        if (again.length > 1) assert.equal(fitsSavedIndex([...again].reverse(), saved), false);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the words\' trigram index when words were left out or came since it was built: a restart builds nothing', async () => {
    const first = buildSearchIndex([post('a.md\n1', 'gamma delta beta'), post('b.md\n1', 'alpha beta'), post('c.md\n1', 'alphabet')]);
    // An edit that adds words: the index keeps the trigram index it had, and searches the new words one by one.
    const edited = post('c.md\n2', 'alphabet zeta betamax');
    const later = buildSearchIndex([first.posts[1]!, edited], first, first.store);
    assert.ok(later.vocabulary.texts.length < later.store.table.words.length, 'the new words are not in the kept trigram index');
    const kept = [first.posts[1]!, edited];
    const saved = readSearchWords(await encoded(later), KEY)!;
    assert.ok(saved.index?.vocabulary, 'the lists and a trigram index of the words kept are in the file');
    const store = createWordStore();
    assert.ok(adoptSavedWords(store, saved));
    assert.deepEqual(store.table.words, ['beta', 'alpha', 'alphabet', 'zeta', 'betamax'], 'gamma and delta left out');
    assert.ok(fitsSavedIndex(kept, saved));
    const steps = savedIndexSteps(kept, saved, store, () => false);
    const step = steps.next();
    assert.ok(step.done, 'nothing is built: the index is there at once');
    assert.equal(step.value.vocabulary.texts.length, 5, 'every word kept is in its trigram index');
    for (const q of ['alpha', 'bet', 'a', 'gamma', 'etam', 'zeta', 'max']) assert.deepEqual(findPositions(step.value, [q]), plainSearch(kept, [q]), q);
  });

  it('keeps lists larger than one slice of the write whole: more offsets and bytes than a slice holds', async () => {
    const words = Array.from({ length: 70_000 }, (_, at) => `w${at}`).join(' ');
    const posts = [0, 1, 2, 3].map((at) => post(`p${at}.md\n1`, `${words} only${at}`));
    const index = buildSearchIndex(posts);
    assert.ok(index.offsets.length > 65_536 && index.bytes.length > 1 << 18, 'the offsets and the bytes take several slices');
    const saved = readSearchWords(await encoded(index), KEY)!;
    assert.ok(saved.index?.vocabulary, 'the file is used');
    assert.deepEqual(saved.index.postings.offsets, index.offsets);
    assert.deepEqual(saved.index.postings.bytes, index.bytes);
    const store = createWordStore();
    assert.ok(adoptSavedWords(store, saved));
    const step = savedIndexSteps(posts, saved, store, () => false).next();
    assert.ok(step.done);
    for (const q of ['w69999', 'only2', 'w1234 only3', 'w7000']) assert.deepEqual(findPositions(step.value, searchTerms(q)), plainSearch(posts, searchTerms(q)), q);
  });

  it('is not used when any byte after its first line is changed', async () => {
    const file = await encoded(buildSearchIndex([post('a.md\n1', 'alpha beta été'), post('b.md\n1', 'gamma beta')]));
    assert.ok(readSearchWords(file, KEY)?.index?.vocabulary);
    for (let at = file.indexOf(0x0a) + 1; at < file.length; at += 1) {
      const damaged = Buffer.from(file);
      damaged[at]! ^= 0x01;
      assert.equal(readSearchWords(damaged, KEY), null, `byte ${at} of ${file.length}`);
    }
  });

  it('gives up the lists of a table whose words are not distinct words', () => {
    const store = createWordStore();
    assert.equal(adoptSavedWords(store, { words: ['alpha\n', 'alpha\n'], count: 2, lists: new Map([['a.md\n1', Uint8Array.of(1, 1)]]) }), false);
    assert.equal(store.saved.size, 0);
    assert.equal(adoptSavedWords(createWordStore(), { words: ['al pha\n'], count: 1, lists: new Map() }), false);
  });
});

describe('the q index words file, kept by the indexer', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('blog-search-words'));
  });
  afterEach(async () => {
    await remove();
  });

  it('is written by the close after a build, and spares the next start every text', async () => {
    const file = path.join(dir, 'data', 'blog-search-words.bin');
    const { catalog } = await loadCatalog();
    const first = createSearchIndexer({ words: createSearchWordsStore(file, KEY), onError: assert.fail, onSaveError: assert.fail });
    first.index(catalog);
    await first.idle();
    assert.equal(first.textsRead(), catalog.published.length);
    await first.close();
    assert.ok((await readFile(file)).length > 0);

    const { catalog: again } = await loadCatalog();
    const second = createSearchIndexer({ words: createSearchWordsStore(file, KEY), onError: assert.fail, onSaveError: assert.fail });
    second.index(again);
    await second.idle();
    assert.equal(second.textsRead(), 0);
    const index = second.indexFor(again)!;
    const posts = again.published.map((entry) => entry.post);
    for (const q of ['e', 'post', 'été', 'alpha beta', 'zz']) assert.deepEqual(findPositions(index, searchTerms(q)), plainSearch(posts, searchTerms(q)), q);
    await second.close();
  });

  it('has the index of unchanged posts ready as soon as the file is taken in; without a file, nothing is waited for', async () => {
    const file = path.join(dir, 'data', 'blog-search-words.bin');
    const { catalog } = await loadCatalog();
    const first = createSearchIndexer({ words: createSearchWordsStore(file, KEY), onError: assert.fail, onSaveError: assert.fail });
    first.index(catalog);
    await first.idle();
    await first.close();

    const { catalog: again } = await loadCatalog();
    const restarted = createSearchIndexer({ words: createSearchWordsStore(file, KEY), onError: assert.fail });
    restarted.index(again);
    await restarted.restored();
    assert.ok(restarted.indexFor(again), 'the index is ready when the file is taken in');
    await restarted.close();

    // No file: restored() does not wait for the build, which is held at its first pause.
    const held: Array<() => void> = [];
    const fresh = createSearchIndexer({ stepMs: 0, pause: () => new Promise<void>((resolve) => held.push(resolve)), onError: assert.fail });
    fresh.index(again);
    await fresh.restored();
    assert.equal(fresh.indexFor(again), null);
    assert.ok(held.length > 0, 'the build is under way');
    const closed = fresh.close();
    for (let resolve = held.shift(); resolve; resolve = held.shift()) resolve();
    await closed;
  });

  it('answers after a restart with a few posts changed from the index kept, those posts read one by one, until theirs is built', async () => {
    const contentDir = path.join(dir, 'posts');
    await cp(FIXTURE_POSTS, contentDir, { recursive: true });
    const file = path.join(dir, 'data', 'blog-search-words.bin');
    const first = createSearchIndexer({ words: createSearchWordsStore(file, KEY), onError: assert.fail, onSaveError: assert.fail });
    first.index((await loadCatalog(contentDir)).catalog);
    await first.idle();
    await first.close();

    const alpha = path.join(contentDir, 'alpha.md');
    await writeFile(alpha, `${await readFile(alpha, 'utf8')}\nQuetzalcoatl.\n`);
    const { catalog } = await loadCatalog(contentDir);
    const held: Array<() => void> = [];
    let free = true;
    const indexer = createSearchIndexer({ words: createSearchWordsStore(file, KEY), stepMs: 0, pause: () => (free ? Promise.resolve() : new Promise<void>((resolve) => held.push(resolve))), onError: assert.fail });
    indexer.index(catalog);
    await indexer.restored();
    free = false;
    const kept = indexer.latest();
    assert.ok(kept, 'the kept index answers');
    assert.equal(indexer.indexFor(catalog), null, 'the catalog\'s own index is not built yet');
    const read: Searchable[] = [];
    for (const q of ['quetzalcoatl', 'post', 'é', 'zz']) {
      const terms = searchTerms(q);
      const matches = indexer.matcherFor(terms);
      const page = selectPage(catalog.primaries, { lang: undefined, tag: undefined, terms, page: 1, limit: 100 }, kept, (one) => (read.push(one), matches(one)));
      const expected = catalog.primaries.filter((entry) => containsEveryTerm(entry.post, terms));
      assert.deepEqual(page.entries, expected, q);
    }
    assert.ok(read.length > 0 && read.every((one) => one.searchKey?.startsWith('alpha.md\n')), 'only the changed post is read');
    free = true;
    for (let resolve = held.shift(); resolve; resolve = held.shift()) resolve();
    await indexer.idle();
    assert.ok(indexer.indexFor(catalog));
    assert.equal(indexer.textsRead(), 1);
    await indexer.close();
  });

  it('is written once a build read many texts, without waiting for the close, even when a newer catalog cut the first build short', async () => {
    const contentDir = path.join(dir, 'many');
    await mkdir(contentDir);
    for (let number = 0; number < 100; number += 1) {
      await writeFile(path.join(contentDir, `post-${number}.md`), `+++\ntitle = "Post ${number}"\ndate = 2024-01-01\n+++\nWord${number} and more.\n`);
    }
    const { config, posts, catalog } = await loadCatalog(contentDir);
    // The same posts in a second catalog: its build finds every text read by the first one, which it cuts short.
    const newer = buildCatalog(groupBySlug(posts), config.site!, config.blog!, Date.now());
    const file = path.join(dir, 'data', 'blog-search-words.bin');
    let pauses = 0;
    const indexer = createSearchIndexer({
      words: createSearchWordsStore(file, KEY),
      pause: () => {
        pauses += 1;
        if (pauses === 1) indexer.index(newer);
        return new Promise((resolve) => setImmediate(resolve));
      },
      onError: assert.fail,
      onSaveError: assert.fail,
    });
    indexer.index(catalog);
    await waitFor('the newer catalog indexed', () => indexer.indexFor(newer) ?? undefined, 5000);
    assert.equal(indexer.indexFor(catalog), null, 'the first build was cut short');
    assert.equal(indexer.textsRead(), 100, 'the texts the first build read count for the one that used them');
    await waitFor('the words file, before any close', () => readFile(file).then(() => true, () => undefined), 5000);
    await indexer.close();
    const saved = readSearchWords(await readFile(file), KEY)!;
    assert.equal(saved.lists.size, 100);
  });

  it('reads the file a window at a time as it reads it whole, and not one cut short', async () => {
    const file = path.join(dir, 'words.bin');
    for (const long of ['x'.repeat(150_000), `\ud800${'xชੁ一'.repeat(30_000)}`]) {
      // Words longer than a window, in UTF-8 and (with a lone surrogate) in UTF-16, where ช and ੁ一 (U+0E0A;
      // U+0A41 U+4E00) hold a newline's byte, 0x0A, that is not a newline: as a unit's low byte, or as a high byte
      // followed by a zero.
      const posts = [post('a.md\n1', 'alpha beta été'), post('b.md\n1', `gamma ${long} beta 😀`), post('c.md\n1', `${long}y x`)];
      const bytes = await encoded(buildSearchIndex(posts));
      await writeFile(file, bytes);
      const whole = readSearchWords(bytes, KEY);
      // Compared as booleans: a failing diff of 100,000-unit words would bury the report.
      assert.ok(whole!.words.join('') === foldCase(`alpha\nbeta\nété\ngamma\n${long}\n😀\n${long}y\nx\n`), 'the words, in number order');
      for (const windowBytes of [1, 3, 7, 64, 1 << 20]) {
        const steps = createSearchWordsStore(file, KEY, windowBytes).read(() => true);
        let step = steps.next();
        while (!step.done) step = steps.next();
        assert.deepEqual(step.value!.lists, whole!.lists, `window of ${windowBytes}`);
        assert.ok(step.value!.words.join('') === whole!.words.join(''), `the words, window of ${windowBytes}`);
      }
      assert.deepEqual(restarted(posts, bytes).textsRead, 0);
    }
    const bytes = await encoded(buildSearchIndex([post('a.md\n1', 'alpha beta été')]));
    await writeFile(file, bytes);
    await writeFile(file, bytes.subarray(0, bytes.length - 1));
    const cut = createSearchWordsStore(file, KEY, 7).read(() => false).next();
    assert.deepEqual(cut, { done: true, value: null });
    assert.deepEqual(createSearchWordsStore(path.join(dir, 'none.bin'), KEY).read(() => false).next(), { done: true, value: null });
  });

  it('reports a file it cannot write, and goes on answering', async () => {
    await writeFile(path.join(dir, 'data'), 'a file where the folder would be');
    const errors: unknown[] = [];
    const { catalog } = await loadCatalog();
    const indexer = createSearchIndexer({ words: createSearchWordsStore(path.join(dir, 'data', 'words.bin'), KEY), onError: assert.fail, onSaveError: (error) => errors.push(error) });
    indexer.index(catalog);
    await indexer.idle();
    await indexer.close();
    assert.equal(errors.length, 1);
    assert.ok(indexer.indexFor(catalog));
  });

  it('gives a restarted blog the same q answers without reading a post file for them', async () => {
    const contentDir = path.join(dir, 'posts');
    await cp(FIXTURE_POSTS, contentDir, { recursive: true });
    await mkdir(path.join(dir, 'data'));
    const deps = { searchWordsFile: path.join(dir, 'data', 'blog-search-words.bin'), clock: () => new Date(Date.UTC(2026, 0, 1)) };
    const queries = ['post', 'é', 'markdown', 'the a', 'zzz'];
    const answersOf = async (blog: Awaited<ReturnType<typeof startBlog>>) => Promise.all(queries.map(async (q) => (await blog.request(`/api/blog/posts?q=${encodeURIComponent(q)}&limit=50`)).body));
    const indexed = (blog: Awaited<ReturnType<typeof startBlog>>) => blog.logs.lines().find((line) => line.event === 'blog_search_indexed');

    const first = await startBlog(contentDir, { deps });
    await waitFor('the first index', () => indexed(first));
    const expected = await answersOf(first);
    assert.ok((indexed(first)!.texts_read as number) > 0);
    await first.close();

    const second = await startBlog(contentDir, { deps });
    await waitFor('the index after the restart', () => indexed(second));
    assert.equal(indexed(second)!.texts_read, 0);
    assert.deepEqual(await answersOf(second), expected);
    await second.close();

    // A file changed between two starts (same name, new stamp) is read again: its new words are found.
    const alpha = path.join(contentDir, 'alpha.md');
    await writeFile(alpha, `${await readFile(alpha, 'utf8')}\nQuetzalcoatl.\n`);
    const third = await startBlog(contentDir, { deps });
    await waitFor('the index after the edit', () => indexed(third));
    assert.equal(indexed(third)!.texts_read, 1);
    assert.equal((await third.request('/api/blog/posts?q=quetzalcoatl')).json.total, 1);
    await third.close();
  });
});
