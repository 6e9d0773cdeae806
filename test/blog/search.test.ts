import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildSearchIndex, findPositions, type Searchable } from '../../src/blog/catalog/search-index.js';
import { searchTerms } from '../../src/blog/catalog/search.js';
import { foldCase } from '../../src/blog/text/fold-case.js';
import { containsEveryTerm, plainSearch } from '../../src/blog/catalog/plain-search.js';
import { selectPage, unindexedCount } from '../../src/blog/catalog/query.js';
import type { CatalogEntry } from '../../src/blog/catalog/catalog.js';

// As parse-post.ts folds a post: title and body in one fold.
const post = (text: string): Searchable => ({ searchText: foldCase(text) });
const found = (texts: string[], query: string) => [...findPositions(buildSearchIndex(texts.map(post)), searchTerms(query))];
const matches = (text: string, query: string) => found([text], query).length === 1;

describe('q matching: every term, case-insensitively (Unicode), as a substring', () => {
  const cases: Array<[string, string, boolean]> = [
    ['Un été chaud', 'ÉTÉ', true],
    ['UN ÉTÉ CHAUD', 'été', true],
    ['Un été chaud', 'ete', false],
    ['Die Hauptstraße', 'STRASSE', true],
    ['DIE HAUPTSTRASSE', 'straße', true],
    ['the ﬁnest', 'fine', true],
    ['ＦＵＬＬ width', 'full', true],
    ['ΣΟΦΟΣ', 'σοφος', true],
    ['Matrix of syntax', 'matrix SYNTAX', true],
    ['Matrix of syntax', 'matrix lynx', false],
    ['xylograph', 'graph', true],
    ['paradox', 'dox', true],
    ['one two', '  two   one  ', true],
    ['emoji 😀 here', '😀', true],
    ['emoji 😀 here', '😁', false],
    ['a', 'a', true],
    ['ab', 'b', true],
    ['ab', 'ba', false],
    ['abcd', 'abc bcd', true],
    ['abc bcd', 'abcd', false],
  ];
  for (const [text, query, expected] of cases) {
    it(`${JSON.stringify(query)} in ${JSON.stringify(text)}: ${expected}`, () => assert.equal(matches(text, query), expected));
  }

  it('splits q on any white space and drops empty terms', () => {
    assert.deepEqual(searchTerms(' A\tb\nC\u00a0d '), ['a', 'b', 'c', 'd']);
    assert.deepEqual(searchTerms('   '), []);
  });

  it('answers in index order, for terms of one, two, three and more units', () => {
    const texts = ['alpha beta', 'beta gamma', 'gamma delta', 'alphabet'];
    assert.deepEqual(found(texts, 'a'), [0, 1, 2, 3]);
    assert.deepEqual(found(texts, 'ta'), [0, 1, 2]);
    assert.deepEqual(found(texts, 'bet'), [0, 1, 3]);
    assert.deepEqual(found(texts, 'alpha bet'), [0, 3]);
    assert.deepEqual(found(texts, 'gamma'), [1, 2]);
    assert.deepEqual(found(texts, 'alphabeta'), []);
    assert.deepEqual(found([], 'a'), []);
  });
});

// Letters whose folding changes length or meets another letter (ß/SS, Turkish İ and ı, Greek final sigma,
// ligatures, full-width forms), combining marks, emoji (surrogate pairs) and plain ASCII to make hits likely.
const LETTERS = ['a', 'b', 'c', 's', 'S', 'ß', 'ẞ', 'i', 'I', 'İ', 'ı', 'Σ', 'σ', 'ς', 'é', 'e\u0301', '\u0301', 'ﬁ', 'Ａ', '😀', '👍🏽', 'κ', 'K', '\u212a', ' ', '\n', '\t', '\u00a0', '\u3000', '-', '.'];
const letter = fc.constantFrom(...LETTERS);
const rawText = fc.array(letter, { maxLength: 40 }).map((letters) => letters.join(''));
const corpus = fc.array(rawText, { minLength: 1, maxLength: 25 });

/** A query made from the corpus: a slice of a post (by code unit, so it may cut a pair), short random terms, or several. */
function queryFor(texts: string[]) {
  const slice = fc.record({ post: fc.nat(), start: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }).map(({ post, start, length }) => {
    const text = texts[post % texts.length]!;
    const from = start % (text.length + 1);
    return text.slice(from, from + length);
  });
  const short = fc.array(letter, { minLength: 1, maxLength: 2 }).map((letters) => letters.join(''));
  const term = fc.oneof(slice, short);
  return fc.array(term, { minLength: 1, maxLength: 3 }).map((terms) => terms.join(' '));
}

describe('the q index answers exactly what the plain scan answers', () => {
  it('over generated corpora and queries, Unicode folding cases included', () => {
    fc.assert(
      fc.property(
        corpus.chain((texts) => fc.tuple(fc.constant(texts), fc.array(queryFor(texts), { minLength: 1, maxLength: 20 }))),
        ([texts, queries]) => {
          const posts = texts.map(post);
          const index = buildSearchIndex(posts);
          for (const query of queries) {
            const terms = searchTerms(query);
            assert.deepEqual([...findPositions(index, terms)], plainSearch(posts, terms), `q=${JSON.stringify(query)}`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('over larger corpora of arbitrary code units (tables grow, most grams are not ASCII)', () => {
    const text = fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 30 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(text, { minLength: 50, maxLength: 150 }).chain((texts) => fc.tuple(fc.constant(texts), fc.array(queryFor(texts), { minLength: 20, maxLength: 40 }))), ([texts, queries]) => {
        const posts = texts.map(post);
        const index = buildSearchIndex(posts);
        for (const query of queries) {
          const terms = searchTerms(query);
          assert.deepEqual([...findPositions(index, terms)], plainSearch(posts, terms), `q=${JSON.stringify(query)}`);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('for terms in most words of most posts, which are looked for in the posts\' word lists', () => {
    // Many short words over three letters: "a" or "b" lies in more than 32 words' lists per post.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'É', 'é', 'c'), minLength: 1, maxLength: 6 });
    const text = fc.array(word, { minLength: 100, maxLength: 300 }).map((words) => words.join(' '));
    const common = fc.constantFrom('a', 'b', 'é', 'ab', 'ba', 'a b', 'c', 'aé', 'a c é');
    fc.assert(
      fc.property(fc.array(fc.oneof(text, text, rawText), { minLength: 1, maxLength: 40 }).chain((texts) => fc.tuple(fc.constant(texts), fc.array(fc.oneof(common, queryFor(texts)), { minLength: 5, maxLength: 20 }))), ([texts, queries]) => {
        const posts = texts.map(post);
        const index = buildSearchIndex(posts);
        for (const query of queries) {
          const terms = searchTerms(query);
          assert.deepEqual([...findPositions(index, terms)], plainSearch(posts, terms), `q=${JSON.stringify(query)}`);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('after edits, an index that reuses the unchanged posts answers as one built from scratch', () => {
    fc.assert(
      fc.property(corpus, corpus, fc.array(fc.nat(), { maxLength: 10 }), fc.array(rawText, { minLength: 1, maxLength: 10 }), (before, added, kept, queries) => {
        const first = before.map(post);
        const previous = buildSearchIndex(first);
        // The next content version: some of the same objects (unchanged files), the rest new (edited files).
        const next = [...kept.map((at) => first[at % first.length]!), ...added.map(post)];
        const reused = buildSearchIndex(next, previous);
        const fresh = buildSearchIndex(next);
        for (const query of [...queries, ...added, ...before]) {
          const terms = searchTerms(query);
          const expected = plainSearch(next, terms);
          assert.deepEqual([...findPositions(reused, terms)], expected);
          assert.deepEqual([...findPositions(fresh, terms)], expected);
          // The older index still answers for its own posts (a snapshot may be serving it).
          assert.deepEqual([...findPositions(previous, terms)], plainSearch(first, terms));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('answers for a later content version from the earlier index, reading the posts it lacks one by one', () => {
    fc.assert(
      fc.property(corpus, corpus, fc.array(fc.nat(), { maxLength: 10 }), fc.array(rawText, { minLength: 1, maxLength: 10 }), (before, added, kept, queries) => {
        const first = before.map(post);
        const earlier = buildSearchIndex(first);
        // The later version: some posts kept (the same objects), some gone, some new (edited or added), in another order.
        const next = [...added.map(post), ...new Set(kept.map((at) => first[at % first.length]!))];
        const candidates = next.map((version) => ({ post: version, tagKeys: [] }) as unknown as CatalogEntry);
        const read: Searchable[] = [];
        const matchesTerms = (terms: readonly string[]) => (version: Searchable) => (read.push(version), containsEveryTerm(version, terms));
        assert.equal(unindexedCount(earlier, candidates), added.length);
        for (const query of [...queries, ...added, ...before]) {
          const terms = searchTerms(query);
          read.length = 0;
          const page = selectPage(candidates, { lang: undefined, tag: undefined, terms, page: 1, limit: 100_000 }, earlier, matchesTerms(terms));
          assert.deepEqual(page.entries.map((entry) => next.indexOf(entry.post as Searchable)), plainSearch(next, terms), `q=${JSON.stringify(query)}`);
          if (terms.length > 0) assert.ok(read.every((version) => !first.includes(version)), 'only the posts the index lacks are read');
        }
      }),
      { numRuns: 200 },
    );
  });
});
