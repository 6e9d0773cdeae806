// What /admin's dashboard reads of data_dir (docs/admin.md "Dashboard"): the archives counted per day, the
// subscriber logs as lines, and the pending-signup journal (read only, never compacted from here).
import path from 'node:path';
import type { DashboardSources } from '../../admin/dashboard-pages/dashboard-sources.js';
import { readStateLines } from '../../newsletter/durable-file.js';
import { replayJournal } from '../../newsletter/pending.js';
import { PENDING_JOURNAL_FILE } from '../../newsletter/pending-store.js';
import { countArchiveByDay } from './archive-files.js';

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
