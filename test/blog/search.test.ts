import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createSearchFilter, foldCase, matchesAllTerms, prepareTerm, searchTerms } from '../../src/blog/catalog/search.js';

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
    const alphabet = fc.constantFrom(...'aeixyzq -é'.split(''));
    const text = fc.array(alphabet, { maxLength: 60 }).map((letters) => letters.join(''));
    const term = fc.array(alphabet.filter((letter) => letter !== ' '), { minLength: 1, maxLength: 5 }).map((letters) => letters.join(''));
    fc.assert(
      fc.property(text, term, (haystack, needle) => {
        assert.equal(matchesAllTerms(haystack, createSearchFilter(haystack), [prepareTerm(needle)]), haystack.includes(needle));
      }),
      { numRuns: 2000 },
    );
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
