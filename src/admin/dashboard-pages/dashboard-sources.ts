// What the dashboard, subscribers and failed-mail pages read (docs/admin.md "Dashboard"): the archives and
// subscriber logs in data_dir, the pending-signup journal (read only, never compacted from here), the mail
// queue's files, the campaigns, and, from the running forms service in this process, its newsletter and counters.
// The admin is built before that service, so the running parts come through functions that may give undefined.
import path from 'node:path';
import type { PostVersionState } from '../../blog/post-version-state.js';
import type { CampaignStore } from '../../campaigns/campaign-store.js';
import type { FormConfig, MessageForm, NewsletterForm } from '../../config/config.js';
import type { FormsReadings } from '../../forms/forms-service.js';
import type { Newsletter } from '../../forms/newsletter/index.js';
import { readStateLines } from '../../forms/newsletter/durable-file.js';
import { replayJournal } from '../../forms/newsletter/pending.js';
import { PENDING_JOURNAL_FILE } from '../../forms/newsletter/pending-store.js';
import type { Clock } from '../../ports.js';
import type { QueueOwnerStore } from '../../queue/shared-store.js';
import { countArchiveByDay } from '../../storage/archive-files.js';

/** A message form that keeps an archive. */
export type ArchivedForm = MessageForm & { archive: string };

export interface DashboardSources {
  forms: readonly FormConfig[];
  clock: Clock;
  /** Submissions per UTC day of `form`'s archive over `days` days up to `now`, oldest first. */
  countSubmissions(form: ArchivedForm, days: number, now: number): Promise<Array<{ day: string; count: number }>>;
  /** The raw lines of `form`'s subscriber log (the history folds them; readSubscribers gives the list). */
  readSubscriberLines(form: NewsletterForm): Promise<unknown[]>;
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
}

/** Whether `form` is a message form with an archive. */
export function isArchived(form: FormConfig): form is ArchivedForm {
  return form.type !== 'newsletter' && typeof form.archive === 'string';
}

/** The file-backed parts of the sources over `dataDir`; the caller adds the running ones. */
export function createFileSources(dataDir: string): Pick<DashboardSources, 'countSubmissions' | 'readSubscriberLines' | 'countPending'> {
  return {
    countSubmissions: (form, days, now) => countArchiveByDay({ file: path.join(dataDir, form.archive), form: form.path }, days, now),
    readSubscriberLines: async (form) => (await readStateLines<unknown>(path.join(dataDir, form.subscribers), 'subscriber log')).records,
    async countPending(now) {
      const { records } = await readStateLines<unknown>(path.join(dataDir, PENDING_JOURNAL_FILE), 'pending signups journal');
      const counts = new Map<string, number>();
      for (const record of replayJournal(records, now).live.values()) counts.set(record.form, (counts.get(record.form) ?? 0) + 1);
      return counts;
    },
  };
}
