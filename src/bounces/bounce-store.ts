// Where the suppression list and what it is built from are kept (docs/bounces.md "Suppression"): the files of
// data_dir/bounces/ (src/adapters/files/suppressions.ts, one process) or PostgreSQL tables every replica shares
// (src/adapters/postgres/suppressions.ts). Both keep the same records: one per sent mail (what its tag stands for,
// for a bounded time), the suppressed addresses, the soft bounces still counting, and each campaign's bounces.
// Every count is made atomically: reports arriving at once, on one replica or several, are counted one by one.
import type { BounceSource } from './bounce-report.js';
import type { CampaignRecipient, MailKind } from '../queue/outgoing.js';

/** What a sent mail's tag stands for (docs/bounces.md "Suppression"): kept BOUNCE_RECORD_DAYS, then forgotten. */
export interface SentMail {
  /** The id in its tag (src/bounces/verp.ts). */
  id: string;
  /** Its envelope recipients, lower-cased: one for every mail but an owner mail to several addresses. */
  to: string[];
  /** An owner mail (a submission, a new subscriber's notice): its bounces never suppress anything. */
  owner: boolean;
  kind: MailKind;
  /** The form it was sent for ('' for none). */
  form: string;
  /** The campaign and recipient a newsletter mail was for. */
  campaign?: CampaignRecipient;
  /** When it was handed to the mail server, ms since the epoch. */
  at: number;
}

/** How long what a tag stands for is kept: bounces come within days, complaints within weeks. */
export const BOUNCE_RECORD_DAYS = 60;

/** Why an address is on the list: a hard bounce, `soft_limit` soft ones within `soft_days`, or a complaint. */
export type SuppressionKind = 'hard' | 'soft' | 'complaint';

/** One suppressed address: no mail but an owner mail goes to it until it is removed. */
export interface Suppression {
  /** Lower-cased. */
  address: string;
  kind: SuppressionKind;
  /** When the report that put it on the list says the failure happened, ms since the epoch. */
  at: number;
  /** A short reason for /admin, with any address in it replaced. */
  reason: string;
  source: BounceSource;
}

/** The bounces a campaign's recipients gave, each recipient counted once per kind. */
export interface CampaignTally {
  hard: number;
  complaint: number;
}

export interface BounceStore {
  /** Keeps what the tag of `mail` stands for; resolves once it can be found. */
  recordSent(mail: SentMail): Promise<void>;
  /** The sent mail of `id`, or undefined (never sent by this service, or forgotten). */
  findSent(id: string): Promise<SentMail | undefined>;
  /** Forgets sent mails (and campaign bounces) from before `before`; how many sent mails went. */
  purgeSent(before: number): Promise<number>;
  /** Whether `address` (any case) is on the list now; a running `serve` sees a command's change within a second. */
  isSuppressed(address: string): Promise<boolean>;
  /** Every suppressed address, newest first. */
  list(): Promise<Suppression[]>;
  /** Puts `entry` on the list; false when its address was there already (the first entry stays). */
  suppress(entry: Suppression): Promise<boolean>;
  /**
   * Counts one soft bounce of `entry.address` at `entry.at` and, when it makes `limit` within the `windowMs` before
   * it, puts `entry` on the list: `suppressed` for the one report that did so, `counted` for every other.
   */
  countSoft(entry: Suppression, policy: { limit: number; windowMs: number }): Promise<'suppressed' | 'counted'>;
  /** Takes `address` off the list and forgets its soft bounces; false when it was not on it. */
  remove(address: string): Promise<boolean>;
  /** Counts a bounce of `kind` of recipient `index` of `campaign`, once per recipient and kind. */
  tallyCampaign(campaign: string, index: number, kind: keyof CampaignTally, at: number): Promise<void>;
  /** What tallyCampaign counted for `campaign` so far. */
  campaignTally(campaign: string): Promise<CampaignTally>;
}
