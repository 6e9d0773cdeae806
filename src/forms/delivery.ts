// Delivery of an accepted submission (docs/forms-api.md "Delivery"): the owner mail, the Telegram message and the
// webhook side by side, delivered when any of them got through, then the receipt. Counts sent / telegram_failed /
// send_failed / auto_reply_failed and logs one event line per message, naming only the form and a safe reason
// (no addresses, no text, no URL).
import type { FormConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { CounterName, Metrics } from './metrics.js';
import type { NewsletterDeps } from '../newsletter/index.js';
import { composeChatText, composeOwnerMail, composeReceipt, composeWebhookEvent, type SubmissionNotice } from './notifications.js';
import type { ChatNotifier, Mailer, WebhookNotifier } from '../ports.js';

export interface DeliveryDeps {
  mailer: Mailer;
  metrics: Metrics;
  logger: Logger;
  /** `mail.from`. */
  from: string;
  /** The form's chat notifier, when it has [forms.telegram]. */
  chatNotifierFor(form: FormConfig): ChatNotifier | undefined;
  /** The form's webhook notifier, when it has [forms.webhook]. */
  webhookNotifierFor(form: FormConfig): WebhookNotifier | undefined;
  /** A new webhook event id: the same for every attempt of one delivery. */
  createEventId(): string;
  siteNameFor(form: FormConfig): string;
}

/** `unavailable`: the shared queue (PostgreSQL) could not be reached, so nothing was kept: 503, try again. */
export type DeliveryOutcome = 'delivered' | 'send_failed' | 'unavailable';

/** How one channel's outcome is told: its log events, the counter a success or a failure adds, its words. */
interface Channel {
  sent: string;
  failed: string;
  countSent?: CounterName;
  countFailed?: CounterName;
  what: string;
}

const OWNER_MAIL: Channel = { sent: 'mail_sent', failed: 'mail_failed', countSent: 'sent', what: 'owner mail' };
const TELEGRAM: Channel = { sent: 'telegram_sent', failed: 'telegram_failed', countFailed: 'telegram_failed', what: 'telegram notification' };
const WEBHOOK: Channel = { sent: 'webhook_sent', failed: 'webhook_failed', what: 'webhook' };

/** Delivers submissions; the answer waits for the receipt too, so nothing is in flight after it. */
export function createDelivery(deps: DeliveryDeps) {
  const { mailer, metrics, logger } = deps;

  /** Runs one channel's send and tells how it went; true when it got through. */
  async function attempt(form: FormConfig, channel: Channel, send: () => Promise<void>): Promise<boolean> {
    try {
      await send();
    } catch (error) {
      if (channel.countFailed) metrics.count(form.path, channel.countFailed);
      logger.warn({ event: channel.failed, form: form.path, reason: safeReason(error) }, `${channel.what} failed`);
      return false;
    }
    if (channel.countSent) metrics.count(form.path, channel.countSent);
    logger.info({ event: channel.sent, form: form.path }, `${channel.what} sent`);
    return true;
  }

  return async function deliver(notice: SubmissionNotice): Promise<DeliveryOutcome> {
    const { form } = notice;
    const chat = deps.chatNotifierFor(form);
    const webhook = deps.webhookNotifierFor(form);
    const outcomes = await Promise.all([
      attempt(form, OWNER_MAIL, () => mailer.send(composeOwnerMail(notice, { from: deps.from, owner: form.to }))),
      chat ? attempt(form, TELEGRAM, () => chat.send(composeChatText(notice))) : false,
      webhook ? attempt(form, WEBHOOK, () => webhook.send(composeWebhookEvent(notice, deps.createEventId()))) : false,
    ]);
    if (!outcomes.includes(true)) {
      metrics.count(form.path, 'send_failed');
      return 'send_failed';
    }

    if (form.receipt) {
      try {
        await mailer.send(composeReceipt(notice.submission, deps.from, deps.siteNameFor(form)));
        logger.info({ event: 'receipt_sent', form: form.path }, 'receipt sent');
      } catch (error) {
        metrics.count(form.path, 'auto_reply_failed');
        logger.warn({ event: 'receipt_failed', form: form.path, reason: safeReason(error) }, 'receipt failed');
      }
    }
    return 'delivered';
  };
}

/** `sendMail` for the newsletter without the queue: the mail goes out now. */
export function sendMailNow(mailer: Mailer): NewsletterDeps['sendMail'] {
  return async (_formPath, _kind, mail) => {
    await mailer.send(mail);
    return 'sent';
  };
}
