// The difference between a version and the current text (docs/admin.md "Posts in git"): removed and added lines in
// their order, three unchanged lines around each change, longer unchanged runs folded into a count, and line ends
// (CRLF or LF) never counted as a change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasChanges, lineDiff } from '../../../src/admin/history-pages/line-diff.js';

const lines = (...texts: string[]) => `${texts.join('\n')}\n`;
const numbered = (count: number, change?: { at: number; text: string }) =>
  lines(...Array.from({ length: count }, (_, index) => (change && index === change.at ? change.text : `line ${index + 1}`)));

describe('lineDiff', () => {
  it('marks removed and added lines, keeping three unchanged lines on each side and folding the rest', () => {
    const diff = lineDiff(numbered(20), numbered(20, { at: 9, text: 'line ten, rewritten' }));
    assert.deepEqual(diff, [
      { kind: 'folded', count: 6 },
      { kind: 'same', text: 'line 7' },
      { kind: 'same', text: 'line 8' },
      { kind: 'same', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'line ten, rewritten' },
      { kind: 'same', text: 'line 11' },
      { kind: 'same', text: 'line 12' },
      { kind: 'same', text: 'line 13' },
      { kind: 'folded', count: 7 },
    ]);
    assert.equal(hasChanges(diff), true);
  });

  it('keeps a short run between two changes whole, and folds a long one between its context', () => {
    const close = lineDiff(lines('a', 'b', 'c', 'd', 'e'), lines('A', 'b', 'c', 'd', 'E'));
    assert.deepEqual(close.map((line) => line.kind), ['removed', 'added', 'same', 'same', 'same', 'removed', 'added']);
    const far = lineDiff(numbered(12), numbered(12, { at: 0, text: 'first' }).replace('line 12', 'last'));
    assert.deepEqual(far.map((line) => (line.kind === 'folded' ? `folded ${line.count}` : line.kind)), ['removed', 'added', 'same', 'same', 'same', 'folded 4', 'same', 'same', 'same', 'removed', 'added']);
  });

  it('sees no change between the same text with other line ends, and lists a new file as added', () => {
    const same = lineDiff('one\r\ntwo\r\n', 'one\ntwo\n');
    assert.deepEqual(same, [{ kind: 'folded', count: 2 }]);
    assert.equal(hasChanges(same), false);
    assert.deepEqual(lineDiff('', 'one\n'), [{ kind: 'added', text: 'one' }]);
    assert.deepEqual(lineDiff('one\n', 'one\n'), [{ kind: 'same', text: 'one' }]);
  });
});
