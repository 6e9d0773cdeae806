// What reply notifications and the owner's moderation links keep (docs/comments.md "Reply notifications"): one
// record per address that asked for notifications, and single-use action tokens of which only a hash is kept.
// src/adapters/files/comment-mail-files.ts and src/adapters/postgres/comment-mail-store.ts keep them.
import type { CommentedVersion } from './comment-store.js';

/** An address that ticked `notify` on one of its comments. */
export interface ReplySubscriber {
  /** Random; the unsubscribe links name the subscriber by it, never by the address. */
  id: string;
  /** As the commenter wrote it; compared without regard to case. */
  address: string;
  /** Whether the address followed its confirmation link. */
  confirmed: boolean;
  /** When the last confirmation mail was claimed, ms since the epoch; null before the first. */
  confirmationSentAt: number | null;
  /** The ids of the comments whose replies are mailed. */
  watched: string[];
}

/** A new opt-in: who wants replies to which comment, and the window within which no second confirmation mail goes. */
export interface OptIn {
  address: string;
  commentId: string;
  now: number;
  /** No confirmation mail when the last one was sent after this time. */
  resendAfter: number;
  /** The id a subscriber gets when it is new. */
  newId: string;
}

/** A single-use token of a link in a mail: the confirmation of a subscriber, or the moderation of a waiting comment. */
export type CommentMailToken =
  | { hash: string; action: 'confirm'; subscriberId: string; expiresAt: number }
  | { hash: string; action: 'moderate'; comment: CommentedVersion & { id: string }; expiresAt: number };

export interface CommentMailStore {
  /**
   * Adds `commentId` to the address's watched comments (making the subscriber when it is new) in one step, and
   * claims the confirmation mail when the address is not confirmed and none was sent after `resendAfter`: of many
   * concurrent opt-ins of one address, one at most gets `sendConfirmation`.
   */
  optIn(optIn: OptIn): Promise<{ subscriber: ReplySubscriber; sendConfirmation: boolean }>;
  subscriberByAddress(address: string): Promise<ReplySubscriber | undefined>;
  subscriberById(id: string): Promise<ReplySubscriber | undefined>;
  /** Marks the subscriber confirmed; false when there is none. */
  confirm(id: string): Promise<boolean>;
  /** Stops the mails for one watched comment, or for all (`commentId` null: the address must confirm again). */
  unsubscribe(id: string, commentId: string | null): Promise<boolean>;
  /** Keeps a new token; the tokens expired at `now` may go. */
  addToken(token: CommentMailToken, now: number): Promise<void>;
  /** The token of `hash` while it is valid at `now`, left in place (a page that shows a button). */
  findToken(hash: string, now: number): Promise<CommentMailToken | undefined>;
  /** Takes the token of `hash` valid at `now` and forgets it, in one step: of concurrent takes, one gets it. */
  takeToken(hash: string, now: number): Promise<CommentMailToken | undefined>;
}
