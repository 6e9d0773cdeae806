// The durable store of pending signups: an append-only JSONL journal under data_dir, replayed into memory at
// start and compacted (atomic rewrite) at start and on each purge. Every write is fsynced before it resolves.
import path from 'node:path';
import { writeFileAtomically } from '../kit/files/atomic-file.js';
import { repairTornTail } from '../kit/files/jsonl.js';
import type { AppendLine } from '../ports.js';
import { readStateLines } from './durable-file.js';
import { addressKey, isExpired, pendingEvent, replayJournal, type JournalEvent, type PendingRecord } from './pending.js';

/** The journal's file name inside data_dir; one journal serves every newsletter form. */
export const PENDING_JOURNAL_FILE = 'newsletter-pending.jsonl';

/** What the start-up found in the journal, for one log line (counts only: lines may hold addresses). */
export interface JournalReport {
  live: number;
  badLines: number;
  unknownLines: number;
  repairedTail: boolean;
  compacted: boolean;
}

/** Pending records in memory, written through to the journal. Writes (appends, compaction) run one at a time. */
export class PendingStore {
  readonly file: string;
  private readonly records = new Map<string, PendingRecord>();
  private readonly byAddress = new Map<string, PendingRecord>();
  private writes: Promise<unknown> = Promise.resolve();
  /** Journal lines of ended records since the last compaction. */
  private endedLines = 0;

  constructor(
    dataDir: string,
    private readonly appendLine: AppendLine,
  ) {
    this.file = path.join(dataDir, PENDING_JOURNAL_FILE);
  }

  /** Replays the journal (a torn or foreign line is skipped, never fatal) and compacts it. */
  async load(now: number): Promise<JournalReport> {
    const { records: lines, badLines } = await readStateLines(this.file, 'pending signups journal');
    const { live, unknown } = replayJournal(lines, now);
    for (const record of live.values()) this.remember(record);
    const repairedTail = await repairTornTail(this.file).catch(() => false);
    const compacted = await this.compact().then(() => true, () => false);
    return { live: live.size, badLines: badLines.length, unknownLines: unknown, repairedTail, compacted };
  }

  /** The record for `hash`, expired or not. */
  get(hash: string): PendingRecord | undefined {
    return this.records.get(hash);
  }

  /** Whether `email` has an unexpired pending record on `form` (case-insensitive). */
  hasLive(form: string, email: string, now: number): boolean {
    const record = this.byAddress.get(addressKey(form, email));
    return record !== undefined && !isExpired(record, now);
  }

  /** Stores `record` durably; it is only visible once the journal line is on disk. */
  add(record: PendingRecord): Promise<void> {
    return this.write(async () => {
      await this.appendLine(this.file, pendingEvent(record));
      this.remember(record);
    });
  }

  /** Ends `hash` at once in memory; the promise tells whether the journal line reached the disk. */
  end(hash: string, op: 'redeemed' | 'removed'): Promise<void> {
    this.forget(hash);
    this.endedLines += 1;
    const event: JournalEvent = { op, hash };
    return this.write(() => this.appendLine(this.file, event));
  }

  /** Drops expired records from memory and rewrites the journal without them. Returns how many went. */
  purge(now: number): Promise<number> {
    let purged = 0;
    for (const record of [...this.records.values()]) {
      if (isExpired(record, now)) {
        this.forget(record.hash);
        purged += 1;
      }
    }
    if (purged === 0 && this.endedLines === 0) return Promise.resolve(0);
    return this.write(() => this.compact()).then(() => purged);
  }

  /** Waits for the writes already started. */
  async settle(): Promise<void> {
    await this.writes.catch(() => undefined);
  }

  private write<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writes.then(task, task);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private async compact(): Promise<void> {
    const ended = this.endedLines;
    const text = [...this.records.values()].map((record) => `${JSON.stringify(pendingEvent(record))}\n`).join('');
    await writeFileAtomically(this.file, text);
    this.endedLines -= ended;
  }

  private remember(record: PendingRecord): void {
    this.records.set(record.hash, record);
    this.byAddress.set(addressKey(record.form, record.email), record);
  }

  private forget(hash: string): void {
    const record = this.records.get(hash);
    if (!record) return;
    this.records.delete(hash);
    const key = addressKey(record.form, record.email);
    if (this.byAddress.get(key) === record) this.byAddress.delete(key);
  }
}
