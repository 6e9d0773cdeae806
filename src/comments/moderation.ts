// Which status a new comment gets (docs/comments.md "Moderation"), and whether a thread still takes comments.
// Pure: the caller asks the store and the clock.
import type { CommentStatus } from './comment-store.js';

export type Moderation = 'first' | 'all' | 'none';

/**
 * A comment taken for spam is spam whatever the moderation; otherwise "none" publishes, "all" holds every comment,
 * and "first" publishes when a comment of the same address was approved before (a comment without an address
 * always waits: nothing ties it to an approved one).
 */
export function statusOfNewComment(moderation: Moderation, isSpam: boolean, addressApproved: boolean): CommentStatus {
  if (isSpam) return 'spam';
  if (moderation === 'none') return 'published';
  if (moderation === 'all') return 'waiting';
  return addressApproved ? 'published' : 'waiting';
}

const DAY_MS = 86_400_000;

/** Whether a post dated `postDateMs` no longer takes comments at `now` under `close_after_days`. */
export function isThreadClosed(postDateMs: number, closeAfterDays: number | undefined, now: number): boolean {
  return closeAfterDays !== undefined && now - postDateMs > closeAfterDays * DAY_MS;
}
