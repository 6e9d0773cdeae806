// `postbox migrate --from-files`, the newsletter's part (docs/newsletter.md "With PostgreSQL"): copies the live
// pending signups, every subscriber log line, the automations mailed and the unsubscribe secret of a data_dir into
// PostgreSQL. Idempotent: a
// second run copies nothing. Run it before the replicas serve from the database: imported events are ordered after any
// already there, and a running replica keeps the secret it read at its start.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config, SubscriberLogRef } from '../../config/config.js';
import { readStateLines } from '../../newsletter/durable-file.js';
import { NEWSLETTER_SECRET_FILE } from '../../newsletter/newsletter-secret.js';
import { AUTOMATIONS_FILE } from '../../newsletter/newsletter-store.js';
import { replayJournal, type PendingRecord } from '../../newsletter/pending.js';
import { PENDING_JOURNAL_FILE } from '../../newsletter/pending-store.js';
import { toSubscriberEvent } from '../../newsletter/subscriber-events.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';

/**
 * A pending signup not yet in the table, unless it was redeemed there already (its `subscribed` event carries
 * the signup's time): a second run does not bring back a link used in between.
 */
const INSERT_PENDING = `
INSERT INTO pending_signups (hash, form, email, created_at, expires_at, lists, lang)
SELECT $1, $2, $3, $4, $5, $6, $7
WHERE NOT EXISTS (SELECT 1 FROM subscriber_events WHERE form = $2 AND lower(email) = lower($3) AND event = 'subscribed' AND signed_up_at = $4)
ON CONFLICT (hash) DO NOTHING`;

/** One subscriber log line, keyed by log, form and its place among the log's readable lines. */
const INSERT_EVENT = `
INSERT INTO subscriber_events (log, form, event, email, at, signed_up_at, source, lang, import_key)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (import_key) DO NOTHING`;

/** A tags line, on the subscription copied with import key $1: $2 the tags. */
const UPSERT_TAGS = `
INSERT INTO subscriber_tags (subscription, tags) SELECT id, $2 FROM subscriber_events WHERE import_key = $1
ON CONFLICT (subscription) DO UPDATE SET tags = EXCLUDED.tags WHERE subscriber_tags.tags IS DISTINCT FROM EXCLUDED.tags`;

/** The file's secret replaces one a replica made, so links mailed before the move keep working. */
const UPSERT_SECRET = `
INSERT INTO newsletter_secret (id, secret) VALUES (1, $1)
ON CONFLICT (id) DO UPDATE SET secret = EXCLUDED.secret WHERE newsletter_secret.secret IS DISTINCT FROM EXCLUDED.secret`;

/**
 * Copies the newsletter records of `dataDir` (the newsletter forms of `config`) into the database of `state`;
 * signups expired at `now` are left behind.
 */
export async function importNewsletterFromFiles(dataDir: string, config: Config, state: PostgresState, now = Date.now()): Promise<ImportCount> {
  const counts: ImportCount = { copied: 0, skipped: 0 };
  const add = (copied: boolean) => (copied ? (counts.copied += 1) : (counts.skipped += 1));
  const secret = await importSecret(dataDir, state);
  if (secret !== undefined) add(secret);
  // Every list's log: the forms' own and those of [[newsletter.lists]] (docs/newsletter.md "Lists").
  for (const list of config.newsletter.lists) {
    for (const copied of await importSubscriberLog(dataDir, list.log, state)) add(copied);
  }
  for (const record of await livePending(dataDir, now)) add(await importPending(record, state));
  for (const copied of await importAutomationsMailed(dataDir, state)) add(copied);
  return counts;
}

/**
 * One result per pair of the automation ledger (docs/newsletter.md "Exactly once, across crashes and replicas"), as
 * its last line leaves it (a line written before claims were settled is settled): a pair already there is skipped.
 */
async function importAutomationsMailed(dataDir: string, state: PostgresState): Promise<boolean[]> {
  const { records } = await readStateLines<Record<string, unknown>>(path.join(dataDir, AUTOMATIONS_FILE), 'automation ledger');
  const pairs = new Map<string, Record<string, unknown> & { automation: string; email: string }>();
  for (const line of records) {
    if (typeof line.automation === 'string' && typeof line.email === 'string') pairs.set(`${line.automation}\n${line.email.toLowerCase()}`, { ...line, automation: line.automation, email: line.email });
  }
  const results: boolean[] = [];
  for (const line of pairs.values()) {
    const at = timeOf(typeof line.at === 'string' ? line.at : '') ?? new Date(0);
    const claimedAt = (typeof line.claimed_at === 'string' ? timeOf(line.claimed_at) : undefined) ?? at;
    const result = await state.query(
      'INSERT INTO newsletter_automations_mailed (automation, email_key, email, at, claimed_at, settled, lang) VALUES ($1, lower($2), $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
      [line.automation, line.email, at, claimedAt, line.settled !== false, typeof line.lang === 'string' ? line.lang : null],
    );
    results.push((result.rowCount ?? 0) > 0);
  }
  return results;
}

/** Whether the secret file was copied (false when the database holds it already, undefined when there is none). */
async function importSecret(dataDir: string, state: PostgresState): Promise<boolean | undefined> {
  const file = path.join(dataDir, NEWSLETTER_SECRET_FILE);
  const secret = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!secret) return undefined;
  if (secret.length !== 32) throw new Error(`the newsletter secret ${file} is not 32 bytes; nothing of the newsletter was copied`);
  return ((await state.query(UPSERT_SECRET, [secret])).rowCount ?? 0) > 0;
}

/** One result per event of a list in its log, in the order of the file. */
async function importSubscriberLog(dataDir: string, form: SubscriberLogRef, state: PostgresState): Promise<boolean[]> {
  const { records } = await readStateLines(path.join(dataDir, form.subscribers), 'subscriber log');
  const results: boolean[] = [];
  /** The import key of each address's last subscription so far: a tags line belongs to it. */
  const subscriptions = new Map<string, string>();
  for (const [index, line] of records.entries()) {
    const event = toSubscriberEvent(line, form.path);
    if (!event) continue;
    const key = `${form.subscribers}\n${form.path}\n${index}`;
    if (event.event === 'tagged') {
      const subscription = subscriptions.get(event.email.toLowerCase());
      if (subscription !== undefined) results.push(((await state.query(UPSERT_TAGS, [subscription, event.tags])).rowCount ?? 0) > 0);
      continue;
    }
    if (event.event === 'subscribed') subscriptions.set(event.email.toLowerCase(), key);
    const values =
      event.event === 'subscribed'
        ? [form.subscribers, form.path, event.event, event.email, timeOf(event.subscribed_at), timeOf(event.signed_up_at), event.source ?? null, event.lang ?? null]
        : [form.subscribers, form.path, event.event, event.email, timeOf(event.at), null, null, null];
    const result = await state.query(INSERT_EVENT, [...values, key]);
    results.push((result.rowCount ?? 0) > 0);
  }
  return results;
}

/** The signups still waiting for their link now (redeemed, removed and expired ones stay behind). */
async function livePending(dataDir: string, now: number): Promise<PendingRecord[]> {
  const { records } = await readStateLines(path.join(dataDir, PENDING_JOURNAL_FILE), 'pending signups journal');
  return [...replayJournal(records, now).live.values()];
}

async function importPending(record: PendingRecord, state: PostgresState): Promise<boolean> {
  const values = [record.hash, record.form, record.email, new Date(record.createdAt), new Date(record.expiresAt), record.lists ?? null, record.lang ?? null];
  return ((await state.query(INSERT_PENDING, values)).rowCount ?? 0) > 0;
}

/** An RFC 3339 time as a Date, or null for a missing or unreadable one (old lines may lack it). */
function timeOf(text: string): Date | null {
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time);
}
