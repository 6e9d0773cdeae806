// `postbox migrate --from-files`, the mail queue's part: copies the pending and failed messages of data_dir/queue
// into queue_messages, with their ids, tries and errors. Idempotent: a message whose id is in the table already
// is skipped, so running it twice copies nothing the second time. Run it with no `serve` sending from the folder.
import { stat } from 'node:fs/promises';
import type { Config } from '../../config/config.js';
import { campaignLaneOf } from '../../queue/outgoing.js';
import { createQueueFiles, queueDirOf } from '../files/queue-files.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';

interface ImportRow {
  id: string;
  created_at: string;
  message: unknown;
  lane: string | null;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  failed_at: string | null;
}

/** Copies data_dir/queue into the table; `copied` rows were new, `skipped` ones were there already. */
export async function importQueueFromFiles(dataDir: string, _config: Config, state: PostgresState, now: number = Date.now()): Promise<ImportCount> {
  const queueDir = queueDirOf(dataDir);
  if (!(await stat(queueDir).catch(() => undefined))?.isDirectory()) return { copied: 0, skipped: 0 };
  const files = createQueueFiles(queueDir);
  const iso = (milliseconds: number) => new Date(milliseconds).toISOString();
  try {
    const rows: ImportRow[] = [];
    // Pending first, in the order they were queued: seq keeps it (a campaign's mails go in that order).
    for (const message of await files.listPending()) {
      rows.push({
        id: message.id,
        created_at: iso(message.createdAt),
        message: message.message,
        lane: campaignLaneOf(message) ?? null,
        attempts: message.attempt?.attempts ?? 0,
        next_attempt_at: iso(message.attempt?.nextAttemptAt ?? now),
        last_error: message.attempt?.lastError ?? null,
        failed_at: null,
      });
    }
    for (const message of await files.listFailed()) {
      rows.push({
        id: message.id,
        created_at: iso(message.createdAt),
        message: message.message,
        lane: campaignLaneOf(message) ?? null,
        attempts: message.attempts,
        next_attempt_at: iso(message.failedAt),
        last_error: message.lastError,
        failed_at: iso(message.failedAt),
      });
    }
    if (rows.length === 0) return { copied: 0, skipped: 0 };
    const { rowCount } = await state.query(
      `INSERT INTO queue_messages (id, created_at, message, lane, attempts, next_attempt_at, last_error, failed_at)
       SELECT r.id, r.created_at, r.message, r.lane, r.attempts, r.next_attempt_at, r.last_error, r.failed_at
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(value, n),
         LATERAL jsonb_to_record(e.value) AS r(id text, created_at timestamptz, message jsonb, lane text, attempts integer, next_attempt_at timestamptz, last_error text, failed_at timestamptz)
       ORDER BY e.n
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
    const copied = rowCount ?? 0;
    return { copied, skipped: rows.length - copied };
  } finally {
    await files.close();
  }
}
