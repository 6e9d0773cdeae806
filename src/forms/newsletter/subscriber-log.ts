// The subscriber logs (docs/newsletter.md "The subscriber log"): one JSONL file per newsletter form under data_dir, one line per
// confirmed address. Loaded at start for duplicate detection; each line is fsynced before a token counts as redeemed.
import path from 'node:path';
import type { NewsletterForm } from '../../config/config.js';
import { repairTornTail } from '../../storage/jsonl.js';
import type { AppendLine } from '../../ports.js';
import { readStateLines } from './durable-file.js';
import { addressKey } from './pending.js';

/** One subscriber line, exactly the documented fields; times are RFC 3339 UTC. */
export interface SubscriberLine {
  email: string;
  form: string;
  subscribed_at: string;
  signed_up_at: string;
}

/** What the start-up found in one subscriber log (counts only). */
export interface SubscriberLogReport {
  form: string;
  subscribers: number;
  badLines: number;
  repairedTail: boolean;
}

/** The subscribed addresses of every newsletter form, kept in memory and appended to disk. */
export class SubscriberLogs {
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly dataDir: string,
    private readonly appendLine: AppendLine,
  ) {}

  /** The log file of `form` (the configuration names one for every newsletter form). */
  fileOf(form: NewsletterForm): string {
    return path.join(this.dataDir, form.subscribers);
  }

  /** Reads the log of each form; a line naming another form (a shared file) counts for that form only. */
  async load(forms: readonly NewsletterForm[]): Promise<SubscriberLogReport[]> {
    const reports: SubscriberLogReport[] = [];
    for (const form of forms) {
      const file = this.fileOf(form);
      const { records, badLines } = await readStateLines<Partial<SubscriberLine>>(file, 'subscriber log');
      let subscribers = 0;
      for (const line of records) {
        if (typeof line?.email !== 'string') continue;
        if (typeof line.form === 'string' && line.form !== form.path) continue;
        this.subscribed.add(addressKey(form.path, line.email));
        subscribers += 1;
      }
      const repairedTail = await repairTornTail(file).catch(() => false);
      reports.push({ form: form.path, subscribers, badLines: badLines.length, repairedTail });
    }
    return reports;
  }

  /** Whether `email` is subscribed to `form`, compared case-insensitively. */
  has(form: NewsletterForm, email: string): boolean {
    return this.subscribed.has(addressKey(form.path, email));
  }

  /** Appends and fsyncs the line; only then is the address counted as subscribed. */
  async append(form: NewsletterForm, line: SubscriberLine): Promise<void> {
    await this.appendLine(this.fileOf(form), line);
    this.subscribed.add(addressKey(form.path, line.email));
  }
}
