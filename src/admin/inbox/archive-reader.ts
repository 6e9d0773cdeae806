// How the inbox and the dashboard read a form's archive (docs/admin.md "Inbox"), whichever backend keeps it:
// data_dir/<archive> files (src/adapters/files/archive-reader-files.ts) or the archives table of PostgreSQL
// (src/adapters/postgres/archive-reader.ts). Entry ids are the backend's own; a page hands them back unchanged.
import type { InboxEntry } from './inbox-entry.js';

/** A form's archive: its configured name and the form's path (two forms may share one archive). */
export interface ArchiveOfForm {
  archive: string;
  form: string;
}

export interface ArchivePage {
  entries: InboxEntry[];
  hasNext: boolean;
}

export interface ArchiveReader {
  /** Page `page` (from 1) of `size` entries matching `terms` (searchTermsOf), newest first. */
  readPage(of: ArchiveOfForm, options: { page: number; size: number; terms: readonly string[] }): Promise<ArchivePage>;
  /** The entry with `id`, or undefined when there is none (any more). */
  readEntry(of: ArchiveOfForm, id: string): Promise<InboxEntry | undefined>;
  /** Every entry, oldest first, a few at a time (the CSV export). */
  readEntries(of: ArchiveOfForm): AsyncIterable<InboxEntry>;
  /** Removes the entry `id`; `missing` when there is none (removed already). */
  remove(of: ArchiveOfForm, id: string): Promise<'removed' | 'missing'>;
  /** Entries per UTC day for the `days` days up to `now`, oldest first (dayCountsOf gives the days). */
  countByDay(of: ArchiveOfForm, days: number, now: number): Promise<Array<{ day: string; count: number }>>;
}

const DAY_MS = 86_400_000;

/** The `days` UTC days up to `now` with a zero count each, oldest first, and the start of the first one. */
export function dayCountsOf(days: number, now: number): { first: number; counts: Array<{ day: string; count: number }> } {
  const date = new Date(now);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  return { first, counts: Array.from({ length: days }, (_, index) => ({ day: new Date(first + index * DAY_MS).toISOString().slice(0, 10), count: 0 })) };
}
