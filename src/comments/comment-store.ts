// What a comment is and where comments are kept (docs/comments.md): each post version's comments by slug and
// language, and the addresses whose comment a person approved, which `moderation = "first"` trusts.
// src/adapters/files/comment-files.ts keeps them in data_dir. Beside them, the webmentions received and their
// statuses (webmention-inbox.ts), and the webmentions queued for the blog's own posts (webmention-ledger.ts).
import type { WebmentionInbox } from './webmention-inbox.js';
import type { SentLedger } from './webmention-ledger.js';

/** Waiting for a person, shown to everybody, or taken for spam (never shown). */
export type CommentStatus = 'waiting' | 'published' | 'spam';

/** A comment sent through the post's form, or a webmention by what its source is (docs/comments.md "Webmentions"). */
export type CommentKind = 'comment' | 'reply' | 'like' | 'repost' | 'bookmark' | 'mention';

/** One post version: a post's slug and the language of the version. */
export interface CommentedVersion {
  slug: string;
  lang: string;
}

/** A comment as it is kept; the address is kept for moderation and never leaves in an answer. */
export interface StoredComment extends CommentedVersion {
  /** Random, unique; what `#comment-<id>` and a reply's `parent` name. */
  id: string;
  /** The comment it answers, null at the top of the thread. */
  parent: string | null;
  author: { name: string; url: string | null };
  email: string | null;
  /** The Markdown as it was sent. */
  text: string;
  /** `text` rendered, without raw HTML (render-comment.ts). */
  html: string;
  /** RFC 3339. */
  createdAt: string;
  status: CommentStatus;
  kind: CommentKind;
  /** For a webmention: the page that mentions the post; a second webmention of the same page updates this one. */
  source?: string;
  /** For a spam comment: why it was taken for spam. */
  reasons?: string[];
  /** For a reply of the site written in /admin: the user who wrote it (shown in /admin only). */
  byUser?: string;
}

export interface CommentStore {
  /** Keeps a new comment; resolves once it is durable. */
  add(comment: StoredComment): Promise<void>;
  /** Every comment of one post version, whatever its status, oldest first. */
  listVersion(version: CommentedVersion): Promise<readonly StoredComment[]>;
  /**
   * A stamp of the version's comments, the same until one of them is added, changed or removed, on every replica
   * (docs/comments.md "Reading the comments"). A store that reads the comments afresh each time (PostgreSQL) has
   * it, so an unchanged thread costs one small read; the files store hands out the same array instead.
   */
  threadStamp?(version: CommentedVersion): Promise<string>;
  /** Every comment of every post, oldest first, for /admin. */
  listAll(): Promise<StoredComment[]>;
  /** Changes a comment's status; the comment as it is now, or undefined when there is no such comment. */
  setStatus(version: CommentedVersion, id: string, status: CommentStatus): Promise<StoredComment | undefined>;
  /** Replaces a comment's text and its HTML; the comment as it is now, or undefined when there is no such comment. */
  edit(version: CommentedVersion, id: string, text: string, html: string): Promise<StoredComment | undefined>;
  /** Forgets a comment for good; false when there was none. */
  remove(version: CommentedVersion, id: string): Promise<boolean>;
  /** Whether a comment from `address` was approved once (compared as kit/email-address.ts compares). */
  isApprovedAddress(address: string): Promise<boolean>;
  /** Remembers that a comment from `address` was approved. */
  addApprovedAddress(address: string): Promise<void>;
  /** The webmentions received, pending until verified, and their statuses (docs/comments.md "Receiving"). */
  webmentions: WebmentionInbox;
  /** The webmentions queued for the blog's own posts, once per (post version, target, change) (docs/comments.md "Sending"). */
  sentWebmentions: SentLedger;
}
