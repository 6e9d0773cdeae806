// Webmentions received and not forgotten (docs/comments.md "Receiving"): each one is kept in the comment store
// before its 202, verified by whichever process claims it, and its status page reads the store. Both comment
// stores implement the inbox: data_dir/comments/webmentions/ (one process) and the table replicas share.

/** What a status page shows. */
export type WebmentionStatus = { status: 'pending' } | { status: 'accepted' } | { status: 'refused'; reason: string };

/** How a verification ended. */
export type SettledStatus = Exclude<WebmentionStatus, { status: 'pending' }>;

/** A webmention as it was received: what verification needs, with the post version its target is. */
export interface InboxWebmention {
  /** Random hex; the status page's address ends with it. */
  id: string;
  source: string;
  /** The target, normalised (webmention-source.ts normaliseUrl). */
  target: string;
  slug: string;
  lang: string;
  /** Milliseconds since the epoch. */
  receivedAt: number;
}

/**
 * The claim contract, the same for both stores: `claim` leases pending webmentions nobody holds, oldest first,
 * until `settle` or until the lease (`leaseMs`) runs out, so that one process verifies each, and one that died
 * while verifying leaves its webmention to another (or to itself after a restart).
 */
export interface WebmentionInbox {
  /** Keeps a received webmention as pending; resolves once it is durable. */
  receive(mention: InboxWebmention): Promise<void>;
  /** Leases at most `limit` pending webmentions to the caller. */
  claim(limit: number, now: number): Promise<InboxWebmention[]>;
  /** Records how the verification of a claimed webmention ended; it is no longer pending. */
  settle(id: string, outcome: SettledStatus): Promise<void>;
  /** The status of webmention `id`, or undefined when none has it (or it was forgotten). */
  status(id: string): Promise<WebmentionStatus | undefined>;
  /** Forgets the settled webmentions received before `before` (their status pages answer 404 from then on). */
  forget(before: number): Promise<void>;
}

/** How long a claim holds a webmention: well past the 5 seconds a source's fetch may take. */
export const WEBMENTION_LEASE_MS = 60_000;

/** What a webmention id looks like (createId's 20 hex digits); anything else is no webmention's. */
export const WEBMENTION_ID = /^[0-9a-f]{20}$/;
