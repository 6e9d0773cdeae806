// The inbox's reader over the archives table (docs/admin.md "Inbox"): newest first by id, an
// entry's id is its row's, a removal is one DELETE (safe with any number of replicas writing beside it), and the
// per-day counts are one GROUP BY. A search reads rows newest first in batches and matches them as the files
// backend does (entryMatches), so both backends find the same submissions.
import { dayCountsOf, type ArchiveOfForm, type ArchiveReader } from '../../admin/inbox/archive-reader.js';
import { entryMatches, entryOfRecord, type InboxEntry } from '../../admin/inbox/inbox-entry.js';
import type { PostgresState } from './state.js';

/** Rows read per query by a search and by the export. */
const BATCH_ROWS = 500;

/** A row id as the inbox's addresses carry it. */
const ROW_ID = /^[1-9]\d{0,17}$/;

interface ArchiveRow {
  id: string;
  data: unknown;
}

export function createPostgresArchiveReader(state: PostgresState): ArchiveReader {
  const entryOf = (row: ArchiveRow): InboxEntry | undefined => entryOfRecord(String(row.id), row.data);

  /** Rows of `of` newest first, from before `beforeId` (or the newest), at most `limit`. */
  const newestRows = async (of: ArchiveOfForm, limit: number, offset: number, beforeId?: string): Promise<ArchiveRow[]> => {
    const { rows } = await state.query<ArchiveRow>(
      'SELECT id, data FROM archives WHERE archive = $1 AND form = $2 AND ($3::bigint IS NULL OR id < $3) ORDER BY id DESC LIMIT $4 OFFSET $5',
      [of.archive, of.form, beforeId ?? null, limit, offset],
    );
    return rows;
  };

  return {
    async readPage(of, { page, size, terms }) {
      const skip = (page - 1) * size;
      if (terms.length === 0) {
        const rows = await newestRows(of, size + 1, skip);
        const entries = rows.slice(0, size).flatMap((row) => entryOf(row) ?? []);
        return { entries, hasNext: rows.length > size };
      }
      const entries: InboxEntry[] = [];
      let matched = 0;
      for (let beforeId: string | undefined; ; ) {
        const rows = await newestRows(of, BATCH_ROWS, 0, beforeId);
        for (const row of rows) {
          const entry = entryOf(row);
          if (!entry || !entryMatches(entry, terms)) continue;
          matched += 1;
          if (matched <= skip) continue;
          if (entries.length === size) return { entries, hasNext: true };
          entries.push(entry);
        }
        if (rows.length < BATCH_ROWS) return { entries, hasNext: false };
        beforeId = String(rows[rows.length - 1]!.id);
      }
    },
    async readEntry(of, id) {
      if (!ROW_ID.test(id)) return undefined;
      const { rows } = await state.query<ArchiveRow>('SELECT id, data FROM archives WHERE id = $1 AND archive = $2 AND form = $3', [id, of.archive, of.form]);
      return rows[0] && entryOf(rows[0]);
    },
    async *readEntries(of) {
      for (let afterId = '0'; ; ) {
        const { rows } = await state.query<ArchiveRow>('SELECT id, data FROM archives WHERE archive = $1 AND form = $2 AND id > $3 ORDER BY id LIMIT $4', [
          of.archive,
          of.form,
          afterId,
          BATCH_ROWS,
        ]);
        for (const row of rows) {
          const entry = entryOf(row);
          if (entry) yield entry;
        }
        if (rows.length < BATCH_ROWS) return;
        afterId = String(rows[rows.length - 1]!.id);
      }
    },
    async remove(of, id) {
      if (!ROW_ID.test(id)) return 'missing';
      const { rowCount } = await state.query('DELETE FROM archives WHERE id = $1 AND archive = $2 AND form = $3', [id, of.archive, of.form]);
      return rowCount === 1 ? 'removed' : 'missing';
    },
    async countByDay(of, days, now) {
      const { first, counts } = dayCountsOf(days, now);
      const { rows } = await state.query<{ day: string; count: string }>(
        `SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count FROM archives
         WHERE archive = $1 AND form = $2 AND received_at >= $3 AND received_at < $4 GROUP BY day`,
        [of.archive, of.form, new Date(first), new Date(first + days * 86_400_000)],
      );
      const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
      return counts.map(({ day }) => ({ day, count: byDay.get(day) ?? 0 }));
    },
  };
}
