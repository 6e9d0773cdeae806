// The sink of delivery without the queue, `[mail] queue = false` (docs/forms-api.md "Delivery"): the owner mail, the
// Telegram message and the webhook are sent side by side, and the submission is delivered when any of them got
// through; then the receipt. The answer waits for all of it, so nothing is in flight after it. Counts sent /
// telegram_failed / send_failed / auto_reply_failed and logs one event line per message, naming only the form and a
// safe reason (no addresses, no text, no URL).
import { SuppressedAddressError } from '../bounces/guard.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { OutgoingMessage } from '../queue/outgoing.js';
import type { SubmissionSink } from './delivery.js';
import type { CounterName, Metrics } from './metrics.js';

export interface SendNowSinkDeps {
  /**
   * Sends one message now; rejects when it was not accepted. `skipped`: a mail held back because its address is on
   * the suppression list (docs/bounces.md "Suppression"), told as a failure since nothing was sent.
   */
  send(message: OutgoingMessage): Promise<void | 'skipped'>;
  metrics: Metrics;
  logger: Logger;
}

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
const WEBMENTION: Channel = { sent: 'webmention_sent', failed: 'webmention_failed', what: 'webmention' };
const RECEIPT: Channel = { sent: 'receipt_sent', failed: 'receipt_failed', countFailed: 'auto_reply_failed', what: 'receipt' };

/** The channel a message of a submission is told as. */
function channelOf(message: OutgoingMessage): Channel {
  if (message.channel === 'telegram') return TELEGRAM;
  if (message.channel === 'webhook') return WEBHOOK;
  if (message.channel === 'webmention') return WEBMENTION;
  return message.channel === 'mail' && message.kind === 'receipt' ? RECEIPT : OWNER_MAIL;
}

export function createSendNowSink(deps: SendNowSinkDeps): SubmissionSink {
  const { metrics, logger } = deps;

  /** Sends one message and tells how it went; true when it got through. */
  async function attempt(formPath: string, message: OutgoingMessage): Promise<boolean> {
    const channel = channelOf(message);
    try {
      if ((await deps.send(message)) === 'skipped') throw new SuppressedAddressError();
    } catch (error) {
      if (channel.countFailed) metrics.count(formPath, channel.countFailed);
      logger.warn({ event: channel.failed, form: formPath, reason: safeReason(error) }, `${channel.what} failed`);
      return false;
    }
    if (channel.countSent) metrics.count(formPath, channel.countSent);
    logger.info({ event: channel.sent, form: formPath }, `${channel.what} sent`);
    return true;
  }

  return async (form, messages) => {
    const receipts = messages.filter((message) => channelOf(message) === RECEIPT);
    const notices = messages.filter((message) => channelOf(message) !== RECEIPT);
    const outcomes = await Promise.all(notices.map((message) => attempt(form.path, message)));
    if (!outcomes.includes(true)) {
      metrics.count(form.path, 'send_failed');
      return 'send_failed';
    }
    for (const receipt of receipts) await attempt(form.path, receipt);
    return 'delivered';
  };
}
