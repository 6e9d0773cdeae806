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

/** A pair of the automation ledger as its last line leaves it. */
interface LedgerEntry {
  automation: string;
  email: string;
  /** RFC 3339: the first claim (a drip's steps count from it). */
  at: string;
  /** RFC 3339: the current claim, renewed by a recovery. */
  claimedAt: string;
  settled: boolean;
  lang?: string;
}

export function createFileNewsletterStore(deps: FileNewsletterStoreDeps): NewsletterStore {
  const { dataDir, forms, logger } = deps;
  const pending = new PendingStore(dataDir, deps.appendLine);
  const subscribers = new SubscriberLogs(dataDir, deps.appendLine);
  const logs = new Map<string, SubscriberLogRef>();
  for (const log of [...forms, ...(deps.lists ?? [])]) if (!logs.has(log.path)) logs.set(log.path, { path: log.path, subscribers: log.subscribers });
  let secret: Buffer | undefined;
  /** The (automation, address) pairs claimed, read from AUTOMATIONS_FILE at open: its last line of a pair wins. */
  const automationsMailed = new Map<string, LedgerEntry>();
  const automationsFile = path.join(dataDir, AUTOMATIONS_FILE);
  const mailedKey = (automation: string, email: string) => `${automation}\n${email.toLowerCase()}`;
  /** Writes `entry` as the pair's state, in memory first so that two calls at once in this process see each other. */
  const writeEntry = async (entry: LedgerEntry, before: LedgerEntry | undefined) => {
    const key = mailedKey(entry.automation, entry.email);
    automationsMailed.set(key, entry);
    try {
      await deps.appendLine(automationsFile, { automation: entry.automation, email: entry.email, at: entry.at, claimed_at: entry.claimedAt, settled: entry.settled, ...(entry.lang !== undefined ? { lang: entry.lang } : {}) });
    } catch (error) {
      if (before) automationsMailed.set(key, before);
      else automationsMailed.delete(key);
      throw error;
    }
  };

  return {
    async open(now) {
      await mkdir(dataDir, { recursive: true }).catch(() => undefined);
      secret = await loadNewsletterSecret(dataDir, deps.randomBytes);
      for (const report of await subscribers.load([...logs.values()])) {
        logger.info({ event: 'subscribers_loaded', ...report }, 'subscriber log loaded');
      }
      const { records } = await readStateLines<Record<string, unknown>>(automationsFile, 'automation ledger');
      for (const line of records) {
        if (typeof line.automation !== 'string' || typeof line.email !== 'string') continue;
        const at = String(line.at ?? '');
        // A line without claimed_at was written before claims were settled: handed over then.
        const entry: LedgerEntry = { automation: line.automation, email: line.email, at, claimedAt: typeof line.claimed_at === 'string' ? line.claimed_at : at, settled: line.settled !== false };
        if (typeof line.lang === 'string') entry.lang = line.lang;
        automationsMailed.set(mailedKey(line.automation, line.email), entry);
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
    automationsMailed: async (ids) =>
      [...automationsMailed.values()].filter((entry) => ids.includes(entry.automation)).map(({ automation, email, at, lang }) => ({ automation, email, at, ...(lang !== undefined ? { lang } : {}) })),
    async claimAutomation(automation, email, at, lang) {
      if (automationsMailed.has(mailedKey(automation, email))) return false;
      await writeEntry({ automation, email, at, claimedAt: at, settled: false, ...(lang !== undefined ? { lang } : {}) }, undefined);
      return true;
    },
    async settleAutomationClaim(claim) {
      const entry = automationsMailed.get(mailedKey(claim.automation, claim.email));
      if (!entry || entry.claimedAt !== claim.claimedAt) return false;
      if (!entry.settled) await writeEntry({ ...entry, settled: true }, entry);
      return true;
    },
    async renewAutomationClaim(claim, at) {
      const entry = automationsMailed.get(mailedKey(claim.automation, claim.email));
      if (!entry || entry.settled || entry.claimedAt !== claim.claimedAt) return false;
      await writeEntry({ ...entry, claimedAt: at }, entry);
      return true;
    },
    unsettledAutomationClaims: async (before) =>
      [...automationsMailed.values()]
        .filter((entry) => !entry.settled && Date.parse(entry.claimedAt) < Date.parse(before))
        .map(({ automation, email, claimedAt, lang }) => ({ automation, email, claimedAt, ...(lang !== undefined ? { lang } : {}) })),
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

