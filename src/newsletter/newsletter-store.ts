// Where the newsletter keeps its records (docs/newsletter.md "With PostgreSQL"): pending signups, the subscriber
// log and the unsubscribe secret, in data_dir (newsletter-file-store.ts) or in PostgreSQL
// (src/adapters/postgres/newsletter-store.ts). A store that cannot reach a shared database rejects with
// UnavailableError; the routes answer 503 and nothing is half done.
import type { NewsletterForm, SubscriberLogRef } from '../config/config.js';
import type { PendingRecord } from './pending.js';
import type { Subscriber } from './subscriber-events.js';
import type { AutomationClaim } from '../queue/outgoing.js';

/** A claim of the ledger never settled, with the language of the sign-up it welcomes. */
export interface UnsettledClaim extends AutomationClaim {
  lang?: string;
}

/** The ledger of the automations mailed in data_dir (docs/newsletter.md "Exactly once"): a line per claim, settle or renewal of a pair. */
export const AUTOMATIONS_FILE = 'newsletter-automations.jsonl';

/** What redeeming a confirmation token came to. */
export type Redemption =
  | {
      kind: 'confirmed';
      record: PendingRecord;
      subscribedAt: number;
      /** The address is on the list, but the end of its pending signup could not be written (it is ended at the next start). */
      unrecorded?: true;
    }
  | { kind: 'gone'; reason: 'unknown' | 'expired' }
  /** Nothing was written: the address is not on the list. */
  | { kind: 'not_saved' };

/** What a join may record besides the address (docs/newsletter.md "Importing addresses"): where it came from, its language. */
export interface JoinAttributes {
  source?: string;
  lang?: string;
}

export interface NewsletterStore {
  /** Reads what must be in memory before the first request (the files); called once at start, `now` being its time. */
  open(now: number): Promise<void>;
  /** The unsubscribe secret, created on first use and the same for every process sharing the store. */
  secret(): Promise<Buffer>;
  /** Whether `email` is on the list `log` (a form's own or one of `[[newsletter.lists]]`) now, compared case-insensitively. */
  isSubscribed(log: SubscriberLogRef, email: string): Promise<boolean>;
  /** The current subscribers of the list `log`, in the order of their last subscription. */
  listSubscribers(log: SubscriberLogRef): Promise<Subscriber[]>;
  /** Whether `email` has an unexpired pending signup on `form` (case-insensitive). */
  hasLivePending(form: NewsletterForm, email: string, now: number): Promise<boolean>;
  /** Whether `hash` is an unexpired pending signup of `form`. */
  isLivePending(form: NewsletterForm, hash: string, now: number): Promise<boolean>;
  /** Stores `record` durably; it counts once this resolves. */
  addPending(record: PendingRecord): Promise<void>;
  /** Ends the pending signup `hash` (its link was not sent). */
  removePending(hash: string): Promise<void>;
  /**
   * Ends the pending signup `hash` of `form` and puts its address on the lists of the record (the form's own when
   * it names none; a list no longer configured is passed over), at most once for a hash whatever the number of
   * concurrent callers and processes: one caller gets `confirmed`, the others `gone`.
   */
  redeem(form: NewsletterForm, hash: string, now: number): Promise<Redemption>;
  /**
   * Puts `email` on the list `log` at `at` (RFC 3339) without a confirmation: a change on the preference page of an
   * address that proved it reads its mail (docs/newsletter.md "Preferences"); false when it was on it already.
   */
  join(log: SubscriberLogRef, email: string, at: string, attributes?: JoinAttributes): Promise<boolean>;
  /**
   * Sets the tags of `email`'s subscription to the list `log` (already in one spelling, attributes.ts), replacing
   * those it had; false when the address is not on the list. A later subscription starts without tags.
   */
  setTags(log: SubscriberLogRef, email: string, tags: readonly string[], at: string): Promise<boolean>;
  /** Records that `email` left the list `log` at `at` (RFC 3339); false when it was not on it. */
  unsubscribe(log: SubscriberLogRef, email: string, at: string): Promise<boolean>;
  /**
   * Records that `email` left every list it is on, at `at` (RFC 3339): after a complaint (docs/bounces.md
   * "Suppression"). Returns the keys of the lists it left (a form's path, or a list id), none when it was on no list.
   */
  removeEverywhere(email: string, at: string): Promise<string[]>;
  /**
   * Claims the automation `automation` for `email` (compared case-insensitively) at `at` (RFC 3339), durably and
   * before its mail is handed over; false when it was claimed already, by this process or another sharing the
   * store. The claim stays unsettled until settleAutomationClaim (docs/newsletter.md "Exactly once").
   */
  claimAutomation(automation: string, email: string, at: string, lang?: string): Promise<boolean>;
  /**
   * Marks `claim` as handed over; true when it is still the pair's claim (settled now or before), false when a
   * recovery renewed it since, or there is no such pair: then the mail queued under it is not to be sent.
   */
  settleAutomationClaim(claim: AutomationClaim): Promise<boolean>;
  /** Replaces the unsettled `claim` with one made at `at`; false when it was settled or renewed meanwhile. */
  renewAutomationClaim(claim: AutomationClaim, at: string): Promise<boolean>;
  /** The claims never settled that were made before `before` (RFC 3339): left by a process that stopped. */
  unsettledAutomationClaims(before: string): Promise<UnsettledClaim[]>;
  /** The pairs claimed for the automations `ids` (each once, the address as claimed, `at` RFC 3339: the first claim). */
  automationsMailed(ids: readonly string[]): Promise<Array<{ automation: string; email: string; at: string; lang?: string }>>;
  /** Drops expired pending signups; returns how many went. */
  purge(now: number): Promise<number>;
  /** Waits for the writes already started. */
  close(): Promise<void>;
}
