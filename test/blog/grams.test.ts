// The numbering of a text's unigrams, bigrams and trigrams (text/grams.ts): each distinct gram once per text, the
// same number whenever it comes again, and the same numbers in a dictionary restored from what the words file keeps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { collectGrams, createGramDictionary, gramsOfTerm, restoreGramDictionary, unitsOfWideKey, wideGramEntries, type GramDictionary } from '../../src/blog/text/grams.js';

/** Every unit gram of `text`, as strings: what collectGrams numbers. */
function gramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  for (let length = 1; length <= 3; length += 1) for (let at = 0; at + length <= text.length; at += 1) grams.add(text.slice(at, at + length));
  return grams;
}

/** Units few enough that texts share grams, ASCII and not, a lone surrogate and a pair among them. */
const text = fc.array(fc.constantFrom('a', 'b', 'é', 'ß', '一', '\ud800', '😀', '\uffff'), { maxLength: 12 }).map((units) => units.join(''));

/** The number each gram of `texts` has in `dictionary` (gramsOfTerm of a gram is its own number). */
function numbering(dictionary: GramDictionary, texts: readonly string[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const one of texts) for (const gram of gramsOf(one)) numbers.set(gram, gramsOfTerm(dictionary, gram)![0]!);
  return numbers;
}

describe('gram numbers', () => {
  it('list each distinct gram of a text once, under one number per gram across texts', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), (texts) => {
        const dictionary = createGramDictionary();
        const seen = new Map<string, number>();
        for (const one of texts) {
          const listed = [...collectGrams(dictionary, one)];
          const grams = gramsOf(one);
          assert.equal(listed.length, grams.size);
          for (const gram of grams) {
            const number = gramsOfTerm(dictionary, gram)![0]!;
            assert.ok(listed.includes(number), gram);
            assert.equal(seen.get(gram) ?? number, number);
            seen.set(gram, number);
          }
        }
        assert.equal(new Set(seen.values()).size, seen.size, 'no two grams share a number');
        assert.equal(dictionary.size, seen.size);
      }),
      { numRuns: 200 },
    );
  });

  it('are the same in a dictionary restored from its saved grams, and new grams come after them', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), fc.array(text, { maxLength: 5 }), (texts, later) => {
        const dictionary = createGramDictionary();
        for (const one of texts) collectGrams(dictionary, one);
        const restored = restoreGramDictionary({ unigrams: dictionary.unigrams, bigrams: dictionary.bigrams, wide: wideGramEntries(dictionary), size: dictionary.size });
        assert.deepEqual(numbering(restored, texts), numbering(dictionary, texts));
        for (const one of later) {
          collectGrams(dictionary, one);
          collectGrams(restored, one);
        }
        assert.deepEqual(numbering(restored, [...texts, ...later]), numbering(dictionary, [...texts, ...later]));
      }),
      { numRuns: 200 },
    );
  });

  it('keep apart grams that differ only in a unit past 2^15, and refuse keys no gram has', () => {
    const dictionary = createGramDictionary();
    collectGrams(dictionary, '\uffff\u7fff\uffff');
    collectGrams(dictionary, '\u7fff\uffff\u7fff');
    assert.notEqual(gramsOfTerm(dictionary, '\uffff\u7fff\uffff')![0], gramsOfTerm(dictionary, '\u7fff\uffff\u7fff')![0]);
    assert.equal(gramsOfTerm(dictionary, '\uffff\uffff\uffff'), null);
    for (const key of [-1, 0.5, 2 ** 48 + 2 ** 32, 2 ** 49 + 65536, Number.NaN]) assert.equal(unitsOfWideKey(key), null, String(key));
  });
});
