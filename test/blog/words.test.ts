import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createWordTable, readText } from '../../src/blog/text/words.js';

const collectWords = (table: ReturnType<typeof createWordTable>, text: string) => readText(table, text).slice();
const wordsOf = (table: ReturnType<typeof createWordTable>, text: string) => [...collectWords(table, text)].map((number) => table.words[number]);

describe('words of a folded text: the runs /\\s+/u leaves, each listed once', () => {
  it('cuts where /\\s+/u cuts, Unicode white space included', () => {
    const text = ' a\tb\u00a0c\u2003d\u3000e\ufefff\u2028g  a\n';
    assert.deepEqual(wordsOf(createWordTable(), text), [...new Set(text.split(/\s+/u).filter((word) => word !== ''))]);
  });

  it('keeps one number per word across texts while the table grows past its first size', () => {
    const table = createWordTable();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { minLength: 200, maxLength: 600 }), (parts) => {
        const text = parts.join(' ');
        const expected = [...new Set(text.split(/\s+/u).filter((word) => word !== ''))];
        assert.deepEqual(wordsOf(table, text), expected);
        // Asked again, the same words keep their numbers.
        assert.deepEqual(collectWords(table, text), collectWords(table, expected.join(' ')));
      }),
      { numRuns: 60 },
    );
    assert.ok(table.words.length > 5000, `only ${table.words.length} words: the table never grew`);
    assert.equal(new Set(table.words).size, table.words.length);
  });
});
