// The difference between a version of a post and the current one, line by line (docs/admin.md "Posts in git"):
// the lines only the version has ("removed" since), those only the current file has ("added" since), and around
// them a few unchanged lines, longer unchanged runs folded into a count. Line ends do not count (merge.ts).
import { diffComm } from 'node-diff3';
import { unixLines } from '../posts/merge.js';

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string } | { kind: 'folded'; count: number };

/** Unchanged lines kept on each side of a change. */
export const CONTEXT_LINES = 3;

function linesOf(text: string): string[] {
  const lines = unixLines(text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The lines of `before` (a version) against `after` (the file now); unchanged runs longer than twice `context` folded. */
export function lineDiff(before: string, after: string, context = CONTEXT_LINES): DiffLine[] {
  const chunks = diffComm(linesOf(before), linesOf(after));
  const result: DiffLine[] = [];
  chunks.forEach((chunk, index) => {
    if (chunk.common) {
      const lines = chunk.common;
      const keepHead = index === 0 ? 0 : context;
      const keepTail = index === chunks.length - 1 ? 0 : context;
      if (lines.length <= keepHead + keepTail + 1) {
        for (const text of lines) result.push({ kind: 'same', text });
        return;
      }
      for (const text of lines.slice(0, keepHead)) result.push({ kind: 'same', text });
      result.push({ kind: 'folded', count: lines.length - keepHead - keepTail });
      for (const text of lines.slice(lines.length - keepTail)) result.push({ kind: 'same', text });
      return;
    }
    for (const text of chunk.buffer1 ?? []) result.push({ kind: 'removed', text });
    for (const text of chunk.buffer2 ?? []) result.push({ kind: 'added', text });
  });
  return result;
}

/** Whether `lines` shows any change. */
export function hasChanges(lines: readonly DiffLine[]): boolean {
  return lines.some((line) => line.kind === 'removed' || line.kind === 'added');
}
