// The quarantine (docs/spam.md "Quarantine"): submissions taken for spam are kept, with their reasons, in the state
// store for `spam_keep_days`, whether or not the form keeps an archive, until a person says "Not spam" or they age
// out. Nothing of them is delivered meanwhile. The store also remembers which proof-of-work challenges were used.
import type { Submission } from '../rules/submission.js';
import type { ChallengeLedger } from './proof-of-work.js';
import type { SpamReason } from './spam-reasons.js';

/** One quarantined submission. */
export interface QuarantinedSubmission {
  /** Unique, and sorts by arrival: a later submission has a greater id. */
  id: string;
  /** The form's path. */
  form: string;
  /** ISO time the submission arrived. */
  receivedAt: string;
  reasons: SpamReason[];
  submission: Submission;
}

/** What a "Not spam" decision found. */
export type ReleaseClaim =
  /** This caller now delivers it; it must then call `released` (or `unclaim` when delivery failed). */
  | { kind: 'claimed'; entry: QuarantinedSubmission }
  /** Someone else released it, or is releasing it now; or it aged out. */
  | { kind: 'gone' };

export interface SpamStore extends ChallengeLedger {
  /** Keeps a submission taken for spam; resolves once it is durable. Returns its id. */
  quarantine(entry: Omit<QuarantinedSubmission, 'id'>): Promise<string>;
  /** Quarantined submissions of `form` not released, newest first; `before` an id to page back from. */
  list(form: string, options: { limit: number; before?: string }): Promise<QuarantinedSubmission[]>;
  /** How many submissions of `form` wait in the quarantine. */
  count(form: string): Promise<number>;
  /**
   * Claims one entry for release. Of concurrent claims exactly one wins; a claim not settled by `released` or
   * `unclaim` within `staleAfterMs` (a crash mid-release) may be claimed again, so nothing stays hidden for ever.
   */
  claim(id: string, now: number, staleAfterMs: number): Promise<ReleaseClaim>;
  /** The claimed entry was delivered (or signed up): it leaves the list, and stays counted for the dashboard. */
  released(id: string, now: number): Promise<void>;
  /** The claimed entry's delivery failed: it is back in the list. */
  unclaim(id: string): Promise<void>;
  /**
   * A person's "Delete" (docs/admin.md "Quarantine"): forgets the waiting entries of `form` that `which` names, the
   * entry `id` or every one up to and including the id `upTo` (what the page showed; later arrivals stay), except
   * those being released right now (claimed within `staleAfterMs` of `now`). Returns how many went; they leave the
   * per-day counts too.
   */
  discard(form: string, which: { id: string } | { upTo: string }, now: number, staleAfterMs: number): Promise<number>;
  /** Quarantined submissions per UTC day ("YYYY-MM-DD") and form since `since` (ms), released ones included. */
  countByDay(since: number): Promise<Array<{ day: string; form: string; count: number }>>;
  /**
   * Forgets the entries of `form` received before `before` (ms), released or not, and every used challenge that
   * expired before `before`. Returns how many entries went.
   */
  prune(form: string, before: number): Promise<number>;
}
