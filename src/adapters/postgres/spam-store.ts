// The spam quarantine in PostgreSQL (docs/spam.md "Quarantine"), shared by every replica: the tables of
// schema/spam.ts. Every decision is one statement, so replicas need no lock: a challenge is used by the one INSERT
// that takes its primary key, and an entry is claimed by the one UPDATE whose condition still holds when it runs.
// A database that cannot be reached rejects with UnavailableError("postgres") (state.ts), as every store does.
import type { QuarantinedSubmission, ReleaseClaim, SpamStore } from '../../forms/spam/quarantine.js';
import type { SpamReason } from '../../forms/spam/spam-reasons.js';
import type { Submission } from '../../forms/rules/submission.js';
import type { PostgresState } from './state.js';

/** Row ids as the store hands them out: fixed width, so that comparing them as text compares their arrival. */
const ID_DIGITS = 16;
/** An id this store could have made. */
const ROW_ID = /^\d{1,19}$/;

interface Row {
  id: string;
  form: string;
  received_at: Date;
  reasons: SpamReason[];
  submission: Submission;
}

const COLUMNS = 'id, form, received_at, reasons, submission';

function entryOf(row: Row): QuarantinedSubmission {
  return { id: String(row.id).padStart(ID_DIGITS, '0'), form: row.form, receivedAt: row.received_at.toISOString(), reasons: row.reasons, submission: row.submission };
}

/** The row id of `id`, or undefined for anything this store never handed out. */
function rowIdOf(id: string | undefined): string | undefined {
  if (id === undefined || !ROW_ID.test(id)) return undefined;
  const value = BigInt(id);
  return value > 0n && value <= 9_223_372_036_854_775_807n ? value.toString() : undefined;
}

export function createPostgresSpamStore(state: PostgresState): SpamStore {
  return {
    async useOnce(id, expiresAt) {
      const { rowCount } = await state.query('INSERT INTO spam_challenges (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, new Date(expiresAt)]);
      return rowCount === 1;
    },

    async quarantine(entry) {
      const { rows } = await state.query<{ id: string }>('INSERT INTO spam_quarantine (form, received_at, reasons, submission) VALUES ($1, $2, $3, $4) RETURNING id', [
        entry.form,
        new Date(entry.receivedAt),
        entry.reasons,
        JSON.stringify(entry.submission),
      ]);
      return String(rows[0]!.id).padStart(ID_DIGITS, '0');
    },

    async list(form, { limit, before }) {
      // An id that is none of ours pages from nowhere: nothing is older than it.
      const beforeId = before === undefined ? null : rowIdOf(before);
      if (beforeId === undefined) return [];
      const { rows } = await state.query<Row>(
        `SELECT ${COLUMNS} FROM spam_quarantine WHERE form = $1 AND released_at IS NULL AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
        [form, beforeId, Math.max(0, Math.floor(limit))],
      );
      return rows.map(entryOf);
    },

    async count(form) {
      const { rows } = await state.query<{ count: string }>('SELECT count(*) AS count FROM spam_quarantine WHERE form = $1 AND released_at IS NULL', [form]);
      return Number(rows[0]!.count);
    },

    async claim(id, now, staleAfterMs): Promise<ReleaseClaim> {
      const rowId = rowIdOf(id);
      if (rowId === undefined) return { kind: 'gone' };
      const { rows } = await state.query<Row>(
        `UPDATE spam_quarantine SET claimed_at = $2 WHERE id = $1 AND released_at IS NULL AND (claimed_at IS NULL OR claimed_at < $3) RETURNING ${COLUMNS}`,
        [rowId, new Date(now), new Date(now - staleAfterMs)],
      );
      return rows[0] ? { kind: 'claimed', entry: entryOf(rows[0]) } : { kind: 'gone' };
    },

    async released(id, now) {
      const rowId = rowIdOf(id);
      if (rowId === undefined) return;
      await state.query('UPDATE spam_quarantine SET released_at = $2 WHERE id = $1 AND released_at IS NULL', [rowId, new Date(now)]);
    },

    async unclaim(id) {
      const rowId = rowIdOf(id);
      if (rowId === undefined) return;
      await state.query('UPDATE spam_quarantine SET claimed_at = NULL WHERE id = $1 AND released_at IS NULL', [rowId]);
    },

    async discard(form, which, now, staleAfterMs) {
      const rowId = rowIdOf('id' in which ? which.id : which.upTo);
      if (rowId === undefined) return 0;
      const { rowCount } = await state.query(
        `DELETE FROM spam_quarantine WHERE form = $1 AND ${'id' in which ? 'id = $2' : 'id <= $2'} AND released_at IS NULL AND (claimed_at IS NULL OR claimed_at < $3)`,
        [form, rowId, new Date(now - staleAfterMs)],
      );
      return rowCount ?? 0;
    },

    async countByDay(since) {
      const { rows } = await state.query<{ day: string; form: string; count: string }>(
        `SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, form, count(*) AS count FROM spam_quarantine
         WHERE received_at >= $1 GROUP BY day, form ORDER BY day, form COLLATE "C"`,
        [new Date(since)],
      );
      return rows.map((row) => ({ day: row.day, form: row.form, count: Number(row.count) }));
    },

    async prune(form, before) {
      const cutoff = new Date(before);
      const { rowCount } = await state.query('DELETE FROM spam_quarantine WHERE form = $1 AND received_at < $2', [form, cutoff]);
      await state.query('DELETE FROM spam_challenges WHERE expires_at < $1', [cutoff]);
      return rowCount ?? 0;
    },
  };
}
