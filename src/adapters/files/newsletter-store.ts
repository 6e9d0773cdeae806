// The newsletter's records in data_dir (docs/newsletter.md): the pending journal, one subscriber log per list and
// the secret file, loaded into memory at start and written through, each line fsynced before it counts.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readStateLines } from '../../newsletter/durable-file.js';
import type { NewsletterForm, SubscriberLogRef } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import type { AppendLine, RandomBytes } from '../../ports.js';
import { safeReason } from '../../kit/safe-reason.js';
import { loadNewsletterSecret } from '../../newsletter/newsletter-secret.js';
import { AUTOMATIONS_FILE, type NewsletterStore, type Redemption } from '../../newsletter/newsletter-store.js';
import { isExpired } from '../../newsletter/pending.js';
import { PendingStore } from '../../newsletter/pending-store.js';
import { readSubscribers, SubscriberLogs } from '../../newsletter/subscriber-log.js';

export interface FileNewsletterStoreDeps {
  dataDir: string;
  forms: readonly NewsletterForm[];
  /** The logs of the lists declared without a form (docs/newsletter.md "Lists"); the forms' own are added. */
  lists?: readonly SubscriberLogRef[];
  appendLine: AppendLine;
  randomBytes: RandomBytes;
  logger: Logger;
}

export function createFileNewsletterStore(deps: FileNewsletterStoreDeps): NewsletterStore {
  const { dataDir, forms, logger } = deps;
  const pending = new PendingStore(dataDir, deps.appendLine);
  const subscribers = new SubscriberLogs(dataDir, deps.appendLine);
  const logs = new Map<string, SubscriberLogRef>();
  for (const log of [...forms, ...(deps.lists ?? [])]) if (!logs.has(log.path)) logs.set(log.path, { path: log.path, subscribers: log.subscribers });
  let secret: Buffer | undefined;
  /** The (automation, address) pairs mailed, read from AUTOMATIONS_FILE at open. */
  const automationsMailed = new Map<string, { automation: string; email: string; at: string }>();
  const automationsFile = path.join(dataDir, AUTOMATIONS_FILE);
  const mailedKey = (automation: string, email: string) => `${automation}\n${email.toLowerCase()}`;

  return {
    async open(now) {
      await mkdir(dataDir, { recursive: true }).catch(() => undefined);
      secret = await loadNewsletterSecret(dataDir, deps.randomBytes);
      for (const report of await subscribers.load([...logs.values()])) {
        logger.info({ event: 'subscribers_loaded', ...report }, 'subscriber log loaded');
      }
      const { records } = await readStateLines<{ automation?: unknown; email?: unknown; at?: unknown }>(automationsFile, 'automation ledger');
      for (const line of records) {
        if (typeof line.automation !== 'string' || typeof line.email !== 'string') continue;
        const key = mailedKey(line.automation, line.email);
        if (!automationsMailed.has(key)) automationsMailed.set(key, { automation: line.automation, email: line.email, at: String(line.at ?? '') });
      }
      const journal = await pending.load(now);
      const level = journal.badLines > 0 || journal.unknownLines > 0 || !journal.compacted ? 'warn' : 'info';
      logger[level]({ event: 'pending_loaded', ...journal }, 'pending signups loaded');
    },
    async secret() {
      secret ??= await loadNewsletterSecret(dataDir, deps.randomBytes);
      return secret;
    },
    isSubscribed: async (form, email) => subscribers.has(form, email),
    // The log as on disk, as `postbox subscribers export` reads it.
    listSubscribers: (form) => readSubscribers(dataDir, form),
    hasLivePending: async (form, email, now) => pending.hasLive(form.path, email, now),
    async isLivePending(form, hash, now) {
      const record = pending.get(hash);
      return record !== undefined && record.form === form.path && !isExpired(record, now);
    },
    addPending: (record) => pending.add(record),
    removePending: (hash) => pending.end(hash, 'removed'),
    async redeem(form, hash, now): Promise<Redemption> {
      const record = pending.get(hash);
      if (!record || record.form !== form.path) return { kind: 'gone', reason: 'unknown' };
      if (isExpired(record, now)) return { kind: 'gone', reason: 'expired' };
      const chosen = (record.lists ?? [form.path]).flatMap((key) => logs.get(key) ?? []);
      const missing = chosen.filter((log) => !subscribers.has(log, record.email));
      // None missing only after a crash between the subscriber lines and the journal line: end the record.
      if (missing.length === 0) logger.warn({ event: 'subscriber_line_exists', form: form.path }, 'confirmation already on file');
      try {
        const line = {
          email: record.email,
          subscribed_at: new Date(now).toISOString(),
          signed_up_at: new Date(record.createdAt).toISOString(),
          source: record.form,
          ...(record.lang !== undefined ? { lang: record.lang } : {}),
        };
        // A crash between two lists leaves the record live: the next confirmation adds the lists still missing.
        for (const log of missing) await subscribers.subscribe(log, line);
      } catch (error) {
        logger.error({ event: 'subscriber_write_failed', form: form.path, reason: safeReason(error) }, 'could not save a confirmation');
        return { kind: 'not_saved' };
      }
      try {
        await pending.end(hash, 'redeemed');
      } catch (error) {
        // The subscriber line is on disk and wins on the next start, so the confirmation stands.
        logger.warn({ event: 'redeemed_write_failed', form: form.path, reason: safeReason(error) }, 'could not journal a redemption');
        return { kind: 'confirmed', record, subscribedAt: now, unrecorded: true };
      }
      return { kind: 'confirmed', record, subscribedAt: now };
    },
    async join(log, email, at, attributes = {}) {
      if (subscribers.has(log, email)) return false;
      await subscribers.subscribe(log, { email, subscribed_at: at, signed_up_at: at, ...attributes });
      return true;
    },
    setTags: (log, email, tags, at) => subscribers.tag(log, email, tags, at),
    automationsMailed: async (ids) => [...automationsMailed.values()].filter((entry) => ids.includes(entry.automation)),
    async claimAutomation(automation, email, at) {
      const key = mailedKey(automation, email);
      if (automationsMailed.has(key)) return false;
      // Taken before the write, so that two confirmations at once in this process claim once.
      automationsMailed.set(key, { automation, email, at });
      try {
        await deps.appendLine(automationsFile, { automation, email, at });
      } catch (error) {
        automationsMailed.delete(key);
        throw error;
      }
      return true;
    },
    async unsubscribe(form, email, at) {
      if (!subscribers.has(form, email)) return false;
      await subscribers.unsubscribe(form, email, at);
      return true;
    },
    async removeEverywhere(email, at) {
      const left: string[] = [];
      for (const log of logs.values()) {
        if (!subscribers.has(log, email)) continue;
        await subscribers.unsubscribe(log, email, at);
        left.push(log.path);
      }
      return left;
    },
    purge: (now) => pending.purge(now),
    close: () => pending.settle(),
  };
}

