// The q index built in the background (catalog/search-indexer.ts): q answers the same before it is ready
// (plain scan) and after, and an index only ever answers for the catalog it was built from.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCatalog, groupBySlug, type Catalog } from '../../src/blog/catalog/catalog.js';
import { selectPage, type PostsQuery } from '../../src/blog/catalog/query.js';
import { containsEveryTerm, plainSearch } from '../../src/blog/catalog/plain-search.js';
import { searchTerms } from '../../src/blog/catalog/search.js';
import { createSearchIndexer } from '../../src/blog/catalog/search-indexer.js';
import { foldCase } from '../../src/blog/text/fold-case.js';
import { loadCatalog } from './fixture.js';

/** Pauses that wait until released, so a test sees the index before and after it is ready. */
function manualPauses() {
  const waiting: Array<() => void> = [];
  let free = false;
  return {
    pause: () => (free ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    pending: () => waiting.length,
    releaseOne: () => waiting.shift()?.(),
    releaseAll: () => {
      free = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
    hold: () => {
      free = false;
    },
  };
}

const QUERIES = ['e', 'al', 'post', 'the', 'ÉTÉ', 'zebrafinch', 'alpha beta', 'zz'];

function answers(catalog: Catalog, index: ReturnType<ReturnType<typeof createSearchIndexer>['indexFor']>) {
  return QUERIES.map((q) => {
    const query: PostsQuery = { lang: undefined, tag: undefined, terms: searchTerms(q), page: 1, limit: 100 };
    return selectPage(catalog.primaries, query, index).entries.map((entry) => entry.url);
  });
}

function scanned(catalog: Catalog) {
  return QUERIES.map((q) => plainSearch(catalog.primaries.map((entry) => entry.post), searchTerms(q)).map((at) => catalog.primaries[at]!.url));
}

describe('the q index, built in the background', () => {
  it('answers q by the plain scan until the index of the catalog is ready, then from the index, the same', async () => {
    const { catalog, posts, config } = await loadCatalog();
    const pauses = manualPauses();
    const indexer = createSearchIndexer({ pause: pauses.pause, onError: (error) => assert.fail(String(error)) });
    indexer.index(catalog);
    await Promise.resolve();
    assert.equal(indexer.indexFor(catalog), null, 'not ready before the build has paused even once');
    assert.deepEqual(answers(catalog, indexer.indexFor(catalog)), scanned(catalog));
    pauses.releaseOne();
    assert.equal(indexer.indexFor(catalog), null);
    pauses.releaseAll();
    await indexer.idle();
    const index = indexer.indexFor(catalog);
    assert.notEqual(index, null);
    assert.deepEqual(answers(catalog, index), scanned(catalog));
    assert.ok(scanned(catalog).some((urls) => urls.length > 0), 'some query finds posts');
    for (const q of QUERIES) {
      for (const entry of catalog.published) {
        const terms = searchTerms(q);
        assert.equal(indexer.matcherFor(terms)(entry.post), containsEveryTerm(entry.post, terms), `${entry.url} q=${q}, judged by its words`);
      }
    }

    // An edit: a new catalog, whose index is not the previous one until it is rebuilt.
    pauses.hold();
    const edited = posts.map((post) => (post.file === 'beta/index.md' ? { ...post, searchText: foldCase(`${post.searchText} Zebrafinch`) } : post));
    const next = buildCatalog(groupBySlug(edited), config.site!, config.blog!, Date.now(), catalog);
    indexer.index(next);
    await Promise.resolve();
    assert.equal(indexer.indexFor(next), null, 'no index answers for a catalog it was not built from');
    assert.equal(indexer.indexFor(catalog), index, 'the older snapshot keeps its own index meanwhile');
    const before = answers(next, indexer.indexFor(next));
    assert.deepEqual(before, scanned(next));
    assert.ok(before[QUERIES.indexOf('zebrafinch')]!.length > 0, 'the edited post is found before the index is rebuilt');
    pauses.releaseAll();
    await indexer.idle();
    assert.notEqual(indexer.indexFor(next), null);
    assert.equal(indexer.indexFor(catalog), null);
    assert.deepEqual(answers(next, indexer.indexFor(next)), before);
    await indexer.close();
  });

  it('drops a build for a catalog a newer one replaced, and stops on close', async () => {
    const { catalog, posts, config } = await loadCatalog();
    const pauses = manualPauses();
    const indexer = createSearchIndexer({ pause: pauses.pause, onError: (error) => assert.fail(String(error)) });
    indexer.index(catalog);
    await Promise.resolve();
    const next = buildCatalog(groupBySlug([...posts]), config.site!, config.blog!, Date.now(), catalog);
    indexer.index(next);
    pauses.releaseAll();
    await indexer.idle();
    assert.equal(indexer.indexFor(catalog), null);
    assert.deepEqual(answers(next, indexer.indexFor(next)), scanned(next));

    pauses.hold();
    const third = buildCatalog(groupBySlug([...posts]), config.site!, config.blog!, Date.now(), next);
    indexer.index(third);
    await Promise.resolve();
    const closed = indexer.close();
    pauses.releaseAll();
    await closed;
    assert.equal(indexer.indexFor(third), null, 'closed before it was done');
  });
});
