// The newsletter double opt-in (docs/newsletter.md "The flow"): signup stores
// a pending record durably, then mails the link; confirm appends the subscriber line, then ends the record.
// Tokens and addresses never reach a log: lines carry the form path, an event name and at most an error code.
import { mkdir } from 'node:fs/promises';
import type { NewsletterForm } from '../../config/config.js';
import { safeReason } from '../../safe-reason.js';
import { UnavailableError } from '../../unavailable-error.js';
import { confirmationLink, confirmationMail, ownerNotice } from './mails.js';
import { addressKey, expiryOf, isExpired, type PendingRecord } from './pending.js';
import { PendingStore } from './pending-store.js';
import { SubscriberLogs } from './subscriber-log.js';
import { createToken, hashToken } from './token.js';
import { loadNewsletterSecret } from './newsletter-secret.js';
import { createUnsubscribing } from './unsubscribe.js';
import type { ConfirmOutcome, ConfirmState, Newsletter, NewsletterDeps, SignupOutcome } from './types.js';

/** How often expired pending records are purged from memory and from the journal. */
const DEFAULT_PURGE_INTERVAL_MS = 10 * 60_000;

type Redemption =
  | { kind: 'confirmed'; record: PendingRecord; subscribedAt: number }
  | { kind: 'gone'; reason: 'unknown' | 'expired' }
  | { kind: 'not_saved' };

/** Loads the pending journal and subscriber logs under data_dir, then serves signups and confirmations. */
export async function createNewsletter(deps: NewsletterDeps): Promise<Newsletter> {
  const { dataDir, forms, from, sendMail, metrics, logger, clock, randomBytes } = deps;
  const pending = new PendingStore(dataDir, deps.appendLine);
  const subscribers = new SubscriberLogs(dataDir, deps.appendLine);
  const signingUp = new Set<string>();
  const redeeming = new Map<string, Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let secret: Buffer = Buffer.alloc(0);

  if (forms.length > 0) {
    await mkdir(dataDir, { recursive: true }).catch(() => undefined);
    secret = await loadNewsletterSecret(dataDir, randomBytes);
    for (const report of await subscribers.load(forms)) {
      logger.info({ event: 'subscribers_loaded', ...report }, 'subscriber log loaded');
    }
    const journal = await pending.load(clock());
    const level = journal.badLines > 0 || journal.unknownLines > 0 || !journal.compacted ? 'warn' : 'info';
    logger[level]({ event: 'pending_loaded', ...journal }, 'pending signups loaded');
    timer = setInterval(() => void purge(), deps.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS);
    timer.unref();
  }

  async function purge(): Promise<void> {
    try {
      const purged = await pending.purge(clock());
      if (purged > 0) logger.info({ event: 'pending_purged', purged }, 'expired signups purged');
    } catch (error) {
      logger.warn({ event: 'pending_purge_failed', reason: safeReason(error) }, 'could not compact the pending journal');
    }
  }

  async function signup(form: NewsletterForm, email: string): Promise<SignupOutcome> {
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

  async function startSignup(form: NewsletterForm, email: string, now: number): Promise<SignupOutcome> {
    const token = createToken(randomBytes);
    const record: PendingRecord = { hash: hashToken(token), email, form: form.path, createdAt: now, expiresAt: expiryOf(now, form.confirm_ttl_hours) };
    try {
      await pending.add(record);
    } catch (error) {
      metrics.count(form.path, 'persist_failed');
      logger.error({ event: 'pending_store_failed', form: form.path, reason: safeReason(error) }, 'could not store a signup');
      return 'storage_failed';
    }
    const link = confirmationLink(form.confirm_url, token);
    let handedOver: 'sent' | 'queued';
    try {
      handedOver = await sendMail(form.path, 'confirmation', confirmationMail(from, deps.siteNameFor(form), email, link, record.expiresAt));
    } catch (error) {
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'confirmation_send_failed', form: form.path, reason: safeReason(error) }, 'confirmation mail failed');
      await pending.end(record.hash, 'removed').catch((removeError: unknown) => {
        logger.error({ event: 'pending_remove_failed', form: form.path, reason: safeReason(removeError) }, 'could not remove a signup');
      });
      // The shared queue is away: the visitor may try again (503), as with any record that could not be kept.
      return error instanceof UnavailableError ? 'unavailable' : 'send_failed';
    }
    // A queued mail is counted by the queue once its server accepted it.
    if (handedOver === 'sent') {
      metrics.count(form.path, 'confirmation_sent');
      logger.info({ event: 'confirmation_sent', form: form.path }, 'confirmation mail sent');
    }
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

  function redeemOnce(form: NewsletterForm, token: string): Promise<Redemption> {
    const hash = hashToken(token);
    return oneAtATime(hash, () => redeem(form, hash));
  }

  async function redeem(form: NewsletterForm, hash: string): Promise<Redemption> {
    const now = clock();
    const record = pending.get(hash);
    if (!record || record.form !== form.path) return { kind: 'gone', reason: 'unknown' };
    if (isExpired(record, now)) return { kind: 'gone', reason: 'expired' };
    if (subscribers.has(form, record.email)) {
      // Only after a crash between the subscriber line and the journal line: the line exists, end the record.
      logger.warn({ event: 'subscriber_line_exists', form: form.path }, 'confirmation already on file');
    } else {
      try {
        const line = { email: record.email, subscribed_at: new Date(now).toISOString(), signed_up_at: new Date(record.createdAt).toISOString() };
        await subscribers.subscribe(form, line);
      } catch (error) {
        metrics.count(form.path, 'persist_failed');
        logger.error({ event: 'subscriber_write_failed', form: form.path, reason: safeReason(error) }, 'could not save a confirmation');
        return { kind: 'not_saved' };
      }
    }
    try {
      await pending.end(hash, 'redeemed');
    } catch (error) {
      // The subscriber line is on disk and wins on the next start, so the confirmation stands.
      metrics.count(form.path, 'persist_failed');
      logger.warn({ event: 'redeemed_write_failed', form: form.path, reason: safeReason(error) }, 'could not journal a redemption');
    }
    return { kind: 'confirmed', record, subscribedAt: now };
  }

  async function confirm(form: NewsletterForm, token: string | undefined): Promise<ConfirmOutcome> {
    // A missing token counts as unknown (docs/newsletter.md "The flow").
    const redemption: Redemption = token ? await redeemOnce(form, token) : { kind: 'gone', reason: 'unknown' };
    if (redemption.kind === 'gone') {
      metrics.count(form.path, 'confirmation_failed');
      logger.info({ event: 'confirmation_rejected', form: form.path, reason: redemption.reason }, 'link unknown, used or expired');
      return 'gone';
    }
    if (redemption.kind === 'not_saved') {
      metrics.count(form.path, 'confirmation_failed');
      return 'not_saved';
    }
    metrics.count(form.path, 'confirmed');
    logger.info({ event: 'subscribed', form: form.path }, 'subscription confirmed');
    const { record, subscribedAt } = redemption;
    try {
      if ((await sendMail(form.path, 'subscriber_notice', ownerNotice(from, form, record.email, record.createdAt, subscribedAt))) === 'sent') {
        metrics.count(form.path, 'sent');
        logger.info({ event: 'owner_notified', form: form.path }, 'owner notified');
      }
    } catch (error) {
      // The subscription stands (its line is on disk); the owner finds it in the subscriber log.
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'owner_notification_failed', form: form.path, reason: safeReason(error) }, 'owner notice failed');
    }
    return 'confirmed';
  }

  function confirmState(form: NewsletterForm, token: string | undefined): ConfirmState {
    const record = token ? pending.get(hashToken(token)) : undefined;
    return record && record.form === form.path && !isExpired(record, clock()) ? 'live' : 'gone';
  }

  async function close(): Promise<void> {
    if (timer) clearInterval(timer);
    await Promise.all([...redeeming.values()]);
    await pending.settle();
  }

  const unsubscribing = createUnsubscribing(secret, subscribers, clock, logger);
  return {
    signup,
    confirm,
    confirmState,
    isUnsubscribeToken: unsubscribing.isValid,
    unsubscribe: unsubscribing.unsubscribe,
    remove: unsubscribing.remove,
    unsubscribeLinkFor: unsubscribing.unsubscribeLinkFor,
    listHeadersFor: unsubscribing.listHeadersFor,
    isSubscribed: (form, email) => subscribers.has(form, email),
    close,
  };
}
