// The newsletter double opt-in (forms-service.md "States and transitions", contract "Newsletter"): signup stores
// a pending record durably, then mails the link; confirm appends the subscriber line, then ends the record.
// Tokens and addresses never reach a log: lines carry the form path, an event name and at most an error code.
import { mkdir } from 'node:fs/promises';
import type { FormConfig } from '../../config/schema.js';
import { resolveSiteName } from '../notifications.js';
import type { ConfirmPage, Newsletter, NewsletterDeps, SignupOutcome } from './index.js';
import { confirmationLink, confirmationMail, ownerNotice } from './mails.js';
import { confirmPage } from './pages.js';
import { addressKey, expiryOf, isExpired, type PendingRecord } from './pending.js';
import { PendingStore } from './pending-store.js';
import { SubscriberLogs } from './subscriber-log.js';
import { createToken, hashToken } from './token.js';

/** How often expired pending records are purged from memory and from the journal. */
const DEFAULT_PURGE_INTERVAL_MS = 10 * 60_000;

type Redemption =
  | { kind: 'confirmed'; record: PendingRecord; subscribedAt: number }
  | { kind: 'gone'; reason: 'unknown' | 'expired' }
  | { kind: 'not_saved' };

/** Loads the pending journal and subscriber logs under data_dir, then serves signups and confirmations. */
export async function createNewsletter(deps: NewsletterDeps): Promise<Newsletter> {
  const { config, mailer, metrics, logger, clock, randomBytes } = deps;
  const forms = config.forms.filter((form) => form.type === 'newsletter');
  const pending = new PendingStore(config.data_dir);
  const subscribers = new SubscriberLogs(config.data_dir);
  const signingUp = new Set<string>();
  const redeeming = new Map<string, Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;

  if (forms.length > 0) {
    await mkdir(config.data_dir, { recursive: true }).catch(() => undefined);
    for (const report of await subscribers.load(forms)) {
      logger.info({ event: 'subscribers_loaded', ...report }, 'subscriber log loaded');
    }
    const journal = await pending.load(clock());
    const level = journal.badLines > 0 || journal.unknownLines > 0 || !journal.compacted ? 'warn' : 'info';
    logger[level]({ event: 'pending_loaded', ...journal }, 'pending signups loaded');
    timer = setInterval(() => void purge(), deps.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS);
    timer.unref();
  }

  function errorCode(error: unknown): string {
    // Only the code: a mail server's message may quote the recipient's address.
    return String((error as NodeJS.ErrnoException | undefined)?.code ?? 'error');
  }

  async function purge(): Promise<void> {
    try {
      const purged = await pending.purge(clock());
      if (purged > 0) logger.info({ event: 'pending_purged', purged }, 'expired signups purged');
    } catch (error) {
      logger.warn({ event: 'pending_purge_failed', reason: errorCode(error) }, 'could not compact the pending journal');
    }
  }

  /** What the schema guarantees for a newsletter form (it also defaults confirm_ttl_hours, config/schema.ts). */
  function settings(form: FormConfig): { publicUrl: string; mail: NonNullable<typeof config.mail>; ttlHours: number } {
    const { public_url: publicUrl } = config.server;
    if (!publicUrl || !config.mail || form.confirm_ttl_hours === undefined) {
      throw new Error(`${form.path}: newsletter forms need server.public_url, [mail] and confirm_ttl_hours`);
    }
    return { publicUrl, mail: config.mail, ttlHours: form.confirm_ttl_hours };
  }

  async function signup(form: FormConfig, email: string): Promise<SignupOutcome> {
    const now = clock();
    const key = addressKey(form.path, email);
    if (subscribers.has(form, email) || pending.hasLive(form.path, email, now) || signingUp.has(key)) {
      metrics.count(form.path, 'duplicate_signup');
      logger.info({ event: 'duplicate_signup', form: form.path }, 'signup skipped');
      return 'duplicate';
    }
    signingUp.add(key);
    try {
      return await startSignup(form, email, now);
    } finally {
      signingUp.delete(key);
    }
  }

  async function startSignup(form: FormConfig, email: string, now: number): Promise<SignupOutcome> {
    const { publicUrl, mail, ttlHours } = settings(form);
    const token = createToken(randomBytes);
    const record: PendingRecord = { hash: hashToken(token), email, form: form.path, createdAt: now, expiresAt: expiryOf(now, ttlHours) };
    try {
      await pending.add(record);
    } catch (error) {
      metrics.count(form.path, 'persist_failed');
      logger.error({ event: 'pending_store_failed', form: form.path, reason: errorCode(error) }, 'could not store a signup');
      return 'storage_failed';
    }
    const link = confirmationLink(publicUrl, form.path, token);
    try {
      const siteName = resolveSiteName(config.site?.title, form, publicUrl);
      await mailer.send(confirmationMail(mail, siteName, email, link, record.expiresAt));
    } catch (error) {
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'confirmation_send_failed', form: form.path, reason: errorCode(error) }, 'confirmation mail failed');
      await pending.end(record.hash, 'removed').catch((removeError: unknown) => {
        logger.error({ event: 'pending_remove_failed', form: form.path, reason: errorCode(removeError) }, 'could not remove a signup');
      });
      return 'send_failed';
    }
    metrics.count(form.path, 'confirmation_sent');
    logger.info({ event: 'confirmation_sent', form: form.path }, 'confirmation mail sent');
    return 'ok';
  }

  /** Confirmations of one token run one after another, so two at once give one 200 and one 410. */
  function oneAtATime<T>(hash: string, task: () => Promise<T>): Promise<T> {
    const run = (redeeming.get(hash) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    redeeming.set(hash, tail);
    void tail.then(() => {
      if (redeeming.get(hash) === tail) redeeming.delete(hash);
    });
    return run;
  }

  function redeemOnce(form: FormConfig, token: string): Promise<Redemption> {
    const hash = hashToken(token);
    return oneAtATime(hash, () => redeem(form, hash));
  }

  async function redeem(form: FormConfig, hash: string): Promise<Redemption> {
    const now = clock();
    const record = pending.get(hash);
    if (!record || record.form !== form.path) return { kind: 'gone', reason: 'unknown' };
    if (isExpired(record, now)) return { kind: 'gone', reason: 'expired' };
    if (subscribers.has(form, record.email)) {
      // Only after a crash between the subscriber line and the journal line: the line exists, end the record.
      logger.warn({ event: 'subscriber_line_exists', form: form.path }, 'confirmation already on file');
    } else {
      try {
        const line = { email: record.email, form: form.path, subscribed_at: new Date(now).toISOString(), signed_up_at: new Date(record.createdAt).toISOString() };
        await subscribers.append(form, line);
      } catch (error) {
        metrics.count(form.path, 'persist_failed');
        logger.error({ event: 'subscriber_write_failed', form: form.path, reason: errorCode(error) }, 'could not save a confirmation');
        return { kind: 'not_saved' };
      }
    }
    try {
      await pending.end(hash, 'redeemed');
    } catch (error) {
      // The subscriber line is on disk and wins on the next start, so the confirmation stands.
      metrics.count(form.path, 'persist_failed');
      logger.warn({ event: 'redeemed_write_failed', form: form.path, reason: errorCode(error) }, 'could not journal a redemption');
    }
    return { kind: 'confirmed', record, subscribedAt: now };
  }

  async function confirm(form: FormConfig, token: string | undefined): Promise<ConfirmPage> {
    const { mail, ttlHours } = settings(form);
    // A missing token counts as unknown (contract "Newsletter").
    const redemption: Redemption = token ? await redeemOnce(form, token) : { kind: 'gone', reason: 'unknown' };
    if (redemption.kind === 'gone') {
      metrics.count(form.path, 'confirmation_failed');
      logger.info({ event: 'confirmation_rejected', form: form.path, reason: redemption.reason }, 'link unknown, used or expired');
      return confirmPage('gone', ttlHours);
    }
    if (redemption.kind === 'not_saved') {
      metrics.count(form.path, 'confirmation_failed');
      return confirmPage('not_saved', ttlHours);
    }
    metrics.count(form.path, 'confirmed');
    logger.info({ event: 'subscribed', form: form.path }, 'subscription confirmed');
    const { record, subscribedAt } = redemption;
    try {
      await mailer.send(ownerNotice(mail, form, record.email, record.createdAt, subscribedAt));
      metrics.count(form.path, 'sent');
      logger.info({ event: 'owner_notified', form: form.path }, 'owner notified');
    } catch (error) {
      // The subscription stands (its line is on disk); the owner finds it in the subscriber log.
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'owner_notification_failed', form: form.path, reason: errorCode(error) }, 'owner notice failed');
    }
    return confirmPage('confirmed', ttlHours);
  }

  async function close(): Promise<void> {
    if (timer) clearInterval(timer);
    await Promise.all([...redeeming.values()]);
    await pending.settle();
  }

  return { signup, confirm, close };
}
