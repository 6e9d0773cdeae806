// Pure rules of pending signups: records, expiry, and replaying the journal of events into live records.
// No I/O here; `now` is always an argument (milliseconds since the epoch).

/** A signup waiting for its link to be opened (docs/newsletter.md "Pending signups"). Times are epoch milliseconds. */
export interface PendingRecord {
  hash: string;
  email: string;
  form: string;
  createdAt: number;
  expiresAt: number;
  /**
   * The keys of the lists the confirmation puts the address on (docs/newsletter.md "Lists"); absent for the form's
   * own list alone (every record written before lists existed).
   */
  lists?: readonly string[];
  /** The language the sign-up gave (the form's field `lang`), recorded on the subscription (docs/newsletter.md "Subscriber attributes"). */
  lang?: string;
}

/** One line of the pending journal. Times are RFC 3339 UTC strings so the file reads well. */
export type JournalEvent =
  | { op: 'pending'; hash: string; email: string; form: string; created_at: string; expires_at: string; lists?: readonly string[]; lang?: string }
  | { op: 'redeemed'; hash: string }
  | { op: 'removed'; hash: string };

const HOUR_MS = 3_600_000;

/** When a record created at `now` stops working, for a form whose links live `ttlHours`. */
export function expiryOf(now: number, ttlHours: number): number {
  return now + Math.round(ttlHours * HOUR_MS);
}

/** A link is dead from its expiry instant on. */
export function isExpired(record: PendingRecord, now: number): boolean {
  return now >= record.expiresAt;
}

/** The case-insensitive identity of an address on a form (docs/newsletter.md "Duplicates"). */
export function addressKey(form: string, email: string): string {
  return `${form}\n${email.toLowerCase()}`;
}

/** The journal line that stores `record`. */
export function pendingEvent(record: PendingRecord): JournalEvent {
  return {
    op: 'pending',
    hash: record.hash,
    email: record.email,
    form: record.form,
    created_at: new Date(record.createdAt).toISOString(),
    expires_at: new Date(record.expiresAt).toISOString(),
    ...(record.lists ? { lists: record.lists } : {}),
    ...(record.lang !== undefined ? { lang: record.lang } : {}),
  };
}

export interface Replay {
  /** Records still pending at `now`, by hash. */
  live: Map<string, PendingRecord>;
  /** Lines that parsed as JSON but are not a journal event (counted, never shown: they may hold addresses). */
  unknown: number;
}

/** Applies the events in order: a pending line adds, a redeemed or removed line ends; expired ones are dropped. */
export function replayJournal(lines: readonly unknown[], now: number): Replay {
  const live = new Map<string, PendingRecord>();
  let unknown = 0;
  for (const line of lines) {
    const event = toEvent(line);
    if (!event) {
      unknown += 1;
    } else if (event.op === 'pending') {
      live.set(event.hash, event.record);
    } else {
      live.delete(event.hash);
    }
  }
  for (const [hash, record] of live) if (isExpired(record, now)) live.delete(hash);
  return { live, unknown };
}

type ParsedEvent = { op: 'pending'; hash: string; record: PendingRecord } | { op: 'redeemed' | 'removed'; hash: string };

function toEvent(line: unknown): ParsedEvent | undefined {
  if (typeof line !== 'object' || line === null) return undefined;
  const value = line as Record<string, unknown>;
  if (typeof value.hash !== 'string' || !/^[0-9a-f]{64}$/.test(value.hash)) return undefined;
  if (value.op === 'redeemed' || value.op === 'removed') return { op: value.op, hash: value.hash };
  if (value.op !== 'pending' || typeof value.email !== 'string' || typeof value.form !== 'string') return undefined;
  const createdAt = parseTime(value.created_at);
  const expiresAt = parseTime(value.expires_at);
  if (createdAt === undefined || expiresAt === undefined) return undefined;
  const record: PendingRecord = { hash: value.hash, email: value.email, form: value.form, createdAt, expiresAt };
  if (Array.isArray(value.lists) && value.lists.every((key) => typeof key === 'string')) record.lists = value.lists as string[];
  if (typeof value.lang === 'string') record.lang = value.lang;
  return { op: 'pending', hash: value.hash, record };
}

function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
