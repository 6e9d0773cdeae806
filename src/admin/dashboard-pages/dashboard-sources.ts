// What the dashboard, subscribers and failed-mail pages read (docs/admin.md "Dashboard"): the archives, the
// subscriber logs and pending signups (src/adapters/files/dashboard-sources-files.ts or the PostgreSQL tables), the mail
// queue, the campaigns, the spam quarantine, and, from the running forms service in this process, its newsletter and
// counters.
// The admin is built before that service, so the running parts come through functions that may give undefined.
import type { PostVersionState } from '../../blog/post-version-state.js';
import type { CampaignStore } from '../../newsletter/campaigns/campaign-store.js';
import type { FormConfig, MessageForm, SubscriberLogRef } from '../../config/config.js';
import type { FormsReadings } from '../../forms/forms-service.js';
import type { SpamStore } from '../../forms/spam/quarantine.js';
import type { Newsletter } from '../../newsletter/index.js';
import type { Clock } from '../../ports.js';
import type { QueueOwnerStore } from '../../queue/store.js';

/** A message form that keeps an archive. */
export type ArchivedForm = MessageForm & { archive: string };

export interface DashboardSources {
  forms: readonly FormConfig[];
  clock: Clock;
  /** Submissions per UTC day of `form`'s archive over `days` days up to `now`, oldest first. */
  countSubmissions(form: ArchivedForm, days: number, now: number): Promise<Array<{ day: string; count: number }>>;
  /** The raw lines of the subscriber log `form` (the history folds them; readSubscribers gives the list). */
  readSubscriberLines(form: SubscriberLogRef): Promise<unknown[]>;
  /** Unexpired pending signups at `now`, by form path. */
  countPending(now: number): Promise<Map<string, number>>;
  /** Every post version of the blog, or undefined without one. */
  listVersions(): readonly PostVersionState[] | undefined;
  /** The running forms service's counters; undefined until it runs. */
  readings(): FormsReadings | undefined;
  /** The running newsletter; undefined until it runs (or without a forms service in this process). */
  newsletter(): Newsletter | undefined;
  /** The mail queue's files when `[mail] queue` is on. */
  queue?: QueueOwnerStore;
  campaigns: CampaignStore;
  /** The spam quarantine: the submissions taken for spam per day (docs/spam.md "Counting"); no chart of spam without. */
  spam?: Pick<SpamStore, 'countByDay'>;
  /** How many comments wait for approval (docs/comments.md), with `[blog.comments]` on. */
  countWaitingComments?(): Promise<number>;
}

/** Whether `form` is a message form with an archive. */
export function isArchived(form: FormConfig): form is ArchivedForm {
  return form.type !== 'newsletter' && typeof form.archive === 'string';
}
