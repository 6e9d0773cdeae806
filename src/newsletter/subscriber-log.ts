// The subscriber logs (docs/newsletter.md "The subscriber log"): one JSONL file per list under data_dir,
// a log of `subscribed` and `unsubscribed` events folded into the current list at start and kept in memory after.
// Each line is fsynced before it counts.
import path from 'node:path';
import type { SubscriberLogRef } from '../config/config.js';
import { repairTornTail } from '../kit/files/jsonl.js';
import type { AppendLine } from '../ports.js';
import { readStateLines } from './durable-file.js';
import { addressKey } from './pending.js';
import { applySubscriberEvent, foldSubscriberLog, type SubscribedLine, type Subscriber, type SubscriberEvent } from './subscriber-events.js';

/** What the start-up found in one subscriber log (counts only). */
export interface SubscriberLogReport {
  form: string;
  subscribers: number;
  badLines: number;
  repairedTail: boolean;
}

/** The log file of a list inside `dataDir` (the configuration names one for every list). */
function subscriberLogFileOf(dataDir: string, form: SubscriberLogRef): string {
  return path.join(dataDir, form.subscribers);
}

/** Reads the current subscribers of a list from its log: for the export command, the service need not run. */
export async function readSubscribers(dataDir: string, form: SubscriberLogRef): Promise<Subscriber[]> {
  const { records } = await readStateLines(subscriberLogFileOf(dataDir, form), 'subscriber log');
  return [...foldSubscriberLog(records, form.path).values()];
}

/** The current subscribers of every list, kept in memory and appended to disk. */
export class SubscriberLogs {
  private readonly lists = new Map<string, Map<string, Subscriber>>();

  constructor(
    private readonly dataDir: string,
    private readonly appendLine: AppendLine,
  ) {}

  /** Folds the log of each list; a line naming another list (a shared file) counts for that list only. */
  async load(forms: readonly SubscriberLogRef[]): Promise<SubscriberLogReport[]> {
    const reports: SubscriberLogReport[] = [];
    for (const form of forms) {
      const file = subscriberLogFileOf(this.dataDir, form);
      const { records, badLines } = await readStateLines(file, 'subscriber log');
      const list = foldSubscriberLog(records, form.path);
      this.lists.set(form.path, list);
      const repairedTail = await repairTornTail(file).catch(() => false);
      reports.push({ form: form.path, subscribers: list.size, badLines: badLines.length, repairedTail });
    }
    return reports;
  }

  /** Whether `email` is subscribed to `form` now, compared case-insensitively. */
  has(form: SubscriberLogRef, email: string): boolean {
    return this.listOf(form).has(addressKey(form.path, email));
  }

  /** Appends and fsyncs a `subscribed` line; only then is the address counted as subscribed. */
  subscribe(form: SubscriberLogRef, line: Omit<SubscribedLine, 'event' | 'form'>): Promise<void> {
    return this.record(form, { event: 'subscribed', form: form.path, ...line });
  }

  /** Appends and fsyncs an `unsubscribed` line; only then has the address left the list. */
  unsubscribe(form: SubscriberLogRef, email: string, at: string): Promise<void> {
    return this.record(form, { event: 'unsubscribed', email, form: form.path, at });
  }

  /**
   * Appends and fsyncs a `tagged` line when `email` is on the list as its log on disk says (another process may
   * write it); false when it is not.
   */
  async tag(form: SubscriberLogRef, email: string, tags: readonly string[], at: string): Promise<boolean> {
    const onDisk = await readSubscribers(this.dataDir, form);
    if (!onDisk.some((subscriber) => subscriber.email.toLowerCase() === email.toLowerCase())) return false;
    await this.record(form, { event: 'tagged', email, form: form.path, tags, at });
    return true;
  }

  private async record(form: SubscriberLogRef, event: SubscriberEvent): Promise<void> {
    await this.appendLine(subscriberLogFileOf(this.dataDir, form), event);
    applySubscriberEvent(this.listOf(form), event);
  }

  private listOf(form: SubscriberLogRef): Map<string, Subscriber> {
    let list = this.lists.get(form.path);
    if (!list) this.lists.set(form.path, (list = new Map()));
    return list;
  }
}
