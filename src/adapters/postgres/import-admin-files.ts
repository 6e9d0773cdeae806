// `postbox migrate --from-files` for /admin's records (docs/admin.md "Inbox"): the form archives (data_dir/<archive>
// of every configured form) and the sessions file, copied into PostgreSQL once. Idempotent: an archive row names
// its line in `source` as "<archive>:<SHA-256 of the line>:<how many identical lines directly precede it>" (the
// same submission twice in one millisecond), so appends and inbox deletions between two runs never make a line
// count twice, and memory stays flat whatever the archive's size; a session is keyed by its id's hash.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ADMIN_SESSIONS_FILE, parseSessionRecords } from '../../admin/sessions.js';
import type { Config } from '../../config/config.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';


/** Rows per INSERT. */
const BATCH_ROWS = 500;

interface ArchiveRow {
  archive: string;
  form: string;
  receivedAt: string;
  data: string;
  source: string;
}

/** Every line of every configured form's archive file as a row of `archives`, in the file's order. */
export async function importArchivesFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  const names = new Set(config.forms.flatMap((form) => (form.type !== 'newsletter' && form.archive !== undefined ? [form.archive] : [])));
  const count: ImportCount = { copied: 0, skipped: 0 };
  for (const archive of names) {
    let batch: ArchiveRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const copied = await insertArchiveRows(state, batch);
      count.copied += copied;
      count.skipped += batch.length - copied;
      batch = [];
    };
    for await (const line of readArchiveLines(path.join(dataDir, archive))) {
      const row = archiveRowOf(archive, line.text, line.occurrence);
      if (!row) {
        count.skipped += 1;
        continue;
      }
      batch.push(row);
      if (batch.length === BATCH_ROWS) await flush();
    }
    await flush();
  }
  return count;
}

/** The sessions of data_dir/admin-sessions.json as rows of `admin_sessions` (expired ones go at the next sign-in). */
export async function importAdminSessionsFromFiles(dataDir: string, _config: Config, state: PostgresState): Promise<ImportCount> {
  const text = await readFile(path.join(dataDir, ADMIN_SESSIONS_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const count: ImportCount = { copied: 0, skipped: 0 };
  for (const [key, record] of parseSessionRecords(text)) {
    const { rowCount } = await state.query(
      'INSERT INTO admin_sessions (id_hash, user_name, generation, created_at, last_seen_at, auth_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id_hash) DO NOTHING',
      [key, record.user, record.generation, record.createdAt, record.lastSeenAt, record.authAt],
    );
    if (rowCount === 1) count.copied += 1;
    else count.skipped += 1;
  }
  return count;
}

/** The row of an archive line, or undefined for a line that is no submission (not an object, no form or time). */
function archiveRowOf(archive: string, text: string, occurrence: number): ArchiveRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { form, received_at: receivedAt } = value as { form?: unknown; received_at?: unknown };
  if (typeof form !== 'string' || typeof receivedAt !== 'string' || Number.isNaN(Date.parse(receivedAt))) return undefined;
  const digest = createHash('sha256').update(text).digest('hex');
  return { archive, form, receivedAt, data: JSON.stringify(value), source: `${archive}:${digest}:${occurrence}` };
}

/** How many rows of `rows` were new. */
async function insertArchiveRows(state: PostgresState, rows: readonly ArchiveRow[]): Promise<number> {
  const { rowCount } = await state.query(
    `INSERT INTO archives (archive, form, received_at, data, source)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::jsonb[], $5::text[])
     ON CONFLICT (source) DO NOTHING`,
    [rows.map((row) => row.archive), rows.map((row) => row.form), rows.map((row) => row.receivedAt), rows.map((row) => row.data), rows.map((row) => row.source)],
  );
  return rowCount ?? 0;
}

/** The non-empty lines of `file` (none when it does not exist), each with how many identical lines directly precede it. */
async function* readArchiveLines(file: string): AsyncGenerator<{ text: string; occurrence: number }> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!opened) return;
  let previous: string | undefined;
  let occurrence = 0;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (text.trim() === '') continue;
      occurrence = text === previous ? occurrence + 1 : 0;
      previous = text;
      yield { text, occurrence };
    }
  } finally {
    stream.destroy();
  }
}
