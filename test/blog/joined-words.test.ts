// Words joined for indexOf (text/joined-words.ts): the words found are exactly those `includes` finds, whatever
// the words and terms hold (surrogate halves, repeats, a term found twice in one word or across many words).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findInJoined, joinWords } from '../../src/blog/text/joined-words.js';

const unit = fc.constantFrom('a', 'b', 'ab', 'é', '\ud83d', '\ude00', '😀', 'ß');
const word = fc.array(unit, { minLength: 1, maxLength: 6 }).map((units) => units.join(''));

describe('words joined for indexOf', () => {
  it('finds the words that include a term, in order, for any range of the table', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), word, fc.nat(), fc.nat(), (words, term, a, b) => {
        const first = words.length === 0 ? 0 : a % (words.length + 1);
        const end = first + (words.length === 0 ? 0 : b % (words.length - first + 1));
        const found: number[] = [];
        findInJoined(joinWords(words, first, end), term, found);
        const expected: number[] = [];
        for (let number = first; number < end; number += 1) if (words[number]!.includes(term)) expected.push(number);
        assert.deepEqual(found, expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('adds to what the list holds already', () => {
    const found = [7];
    findInJoined(joinWords(['x', 'ab', 'b', 'abab'], 1, 4), 'ab', found);
    assert.deepEqual(found, [7, 1, 3]);
  });
});
