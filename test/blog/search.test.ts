import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchesAllTerms, prepareTerm, searchTerms } from '../../src/blog/catalog/search.js';
import { foldCase } from '../../src/blog/text/fold-case.js';
import { createSearchFilter } from '../../src/blog/text/search-filter.js';

const matches = (text: string, query: string) => {
  const folded = foldCase(text);
  return matchesAllTerms(folded, createSearchFilter(folded), searchTerms(query).map(prepareTerm));
};

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
  ];
  for (const [text, query, expected] of cases) {
    it(`${JSON.stringify(query)} in ${JSON.stringify(text)}: ${expected}`, () => assert.equal(matches(text, query), expected));
  }

  it('splits q on any white space and drops empty terms', () => {
    assert.deepEqual(searchTerms(' A\tb\nC\u00a0d '), ['a', 'b', 'c', 'd']);
    assert.deepEqual(searchTerms('   '), []);
  });

  it('the filter and the rare-letter search find exactly what String.prototype.includes finds', () => {
    // A small alphabet makes chance hits likely; the second property always searches a part of the text.
    const alphabet = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 -é'.split(''));
    const text = fc.array(alphabet, { maxLength: 80 }).map((letters) => letters.join(''));
    const term = fc.array(alphabet.filter((letter) => letter !== ' '), { minLength: 1, maxLength: 4 }).map((letters) => letters.join(''));
    const search = (haystack: string, needle: string) => matchesAllTerms(haystack, createSearchFilter(haystack), [prepareTerm(needle)]);
    fc.assert(
      fc.property(text, term, (haystack, needle) => assert.equal(search(haystack, needle), haystack.includes(needle))),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 1, max: 12 }), (haystack, start, length) => {
        const needle = haystack.slice(start % (haystack.length + 1), (start % (haystack.length + 1)) + length).trim();
        if (needle === '' || needle.includes(' ')) return;
        assert.equal(search(haystack, needle), true, `${JSON.stringify(needle)} in ${JSON.stringify(haystack)}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds terms whose pairs land on the top bit of a filter word (benchedit0)', () => {
    const text = foldCase('Edited benchedit0\nBody');
    assert.equal(matchesAllTerms(text, createSearchFilter(text), [prepareTerm('benchedit0')]), true);
  });

  it('the filter rules out texts that lack a pair of the term', () => {
    const text = 'lorem ipsum dolor sit amet';
    const filter = createSearchFilter(text);
    // "zq" is in no text above; with 4,096 bits and about 25 pairs set, a false "maybe" is very unlikely.
    assert.equal(matchesAllTerms(text, filter, [prepareTerm('zq')]), false);
    assert.equal(matchesAllTerms(text, filter, [prepareTerm('dolor'), prepareTerm('amet')]), true);
    assert.equal(matchesAllTerms(text, filter, [prepareTerm('dolor'), prepareTerm('amex')]), false);
  });
});
