// A `q` page from the index (catalog/query.ts selectPage): the total counted from the index's sets of posts and only
// the page's posts walked to, merged with the posts the index lacks (new since it was built), must be the page a
// scan of every candidate gives, for any page, limit and tag.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CatalogEntry } from '../../src/blog/catalog/catalog.js';
import { containsEveryTerm } from '../../src/blog/catalog/plain-search.js';
import { selectPage, type PostsQuery } from '../../src/blog/catalog/query.js';
import { buildSearchIndex, type Searchable } from '../../src/blog/catalog/search-index.js';
import { searchTerms } from '../../src/blog/catalog/search.js';
import { foldCase } from '../../src/blog/text/fold-case.js';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'al', 'be', 'ta', 'été');
const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));
const q = fc.array(fc.constantFrom('a', 'al', 'beta', 'ta', 'été', 'zz', 'alpha be'), { minLength: 1, maxLength: 2 }).map((terms) => terms.join(' '));

/** A post as a catalog entry, with its tags. */
function entry(body: string, tags: string[]): CatalogEntry {
  return { post: { searchText: foldCase(body) }, tagKeys: tags } as unknown as CatalogEntry;
}

describe('a q page from the index', () => {
  it('is the page the scan of every candidate gives, with posts the index lacks merged in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ body: text, tags: fc.subarray(['a', 'b']), candidate: fc.boolean(), indexed: fc.boolean() }), { maxLength: 120 }),
        fc.array(fc.record({ q, tag: fc.constantFrom(undefined, 'a', 'b'), page: fc.integer({ min: 1, max: 6 }), limit: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 8 }),
        (posts, queries) => {
          const entries = posts.map((post) => entry(post.body, post.tags));
          // The index holds the indexed posts in the catalog's order; the candidates are some of every post, in the
          // same order, among them posts the index lacks.
          const index = buildSearchIndex(entries.filter((_, at) => posts[at]!.indexed || !posts[at]!.candidate).map((one) => one.post as Searchable));
          const candidates = entries.filter((_, at) => posts[at]!.candidate);
          for (const { q: raw, tag, page, limit } of queries) {
            const query: PostsQuery = { lang: undefined, tag, terms: searchTerms(raw), page, limit };
            const matches = (post: Searchable) => containsEveryTerm(post, query.terms);
            assert.deepEqual(selectPage(candidates, query, index, matches), selectPage(candidates, query, null), `q=${raw} tag=${tag} page=${page} limit=${limit}`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
