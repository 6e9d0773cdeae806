// A new comment's id (docs/comments.md "Comment ids"): the second it was made, then four random digits, all in base
// 36 ("tkp8qxa3f2"). Each id is in its thread's answer, and again in its replies' `parent`: ids made close in time
// begin alike, which brotli and gzip find, where 20 random hex digits cost ten bytes each. The id is public once
// the comment is, and no link or token trusts it. Other ids (an import's 20 hex digits) are read as they are.
import { randomInt } from 'node:crypto';
import type { Clock } from '../ports.js';

/** How many ids one second can give: four base-36 digits. */
export const IDS_PER_SECOND = 36 ** 4;

/** The id of a comment made at `now` (ms since the epoch), with `draw` a random integer in [0, IDS_PER_SECOND). */
export function commentIdOf(now: number, draw: number): string {
  return `${Math.floor(now / 1000).toString(36)}${draw.toString(36).padStart(4, '0')}`;
}

/**
 * Makes ids at `clock`'s time with draws of the system's secure random source, never the same id twice in one
 * process: a draw already given in the same second is drawn again. (Two replicas on PostgreSQL can still meet, once
 * in 1,679,616 for two comments of the same second; the second insert then fails and the visitor is asked to send
 * again, docs/comments.md "Comment ids".)
 */
export function createCommentIdMaker(clock: Clock, draw: () => number = () => randomInt(IDS_PER_SECOND)): () => string {
  let second = -1;
  let given = new Set<number>();
  return () => {
    const now = clock();
    const thisSecond = Math.floor(now / 1000);
    if (thisSecond !== second) {
      second = thisSecond;
      given = new Set();
    }
    // A second that gave every id (1.7 million comments) takes the next second's.
    if (given.size >= IDS_PER_SECOND) return createNext(now);
    let value = draw();
    while (given.has(value)) value = draw();
    given.add(value);
    return commentIdOf(now, value);
  };

  function createNext(now: number): string {
    second = Math.floor(now / 1000) + 1;
    given = new Set();
    const value = draw();
    given.add(value);
    return commentIdOf(second * 1000, value);
  }
}
