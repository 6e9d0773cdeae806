// What the mail queue's events mean for /metrics and the log (docs/delivery.md "Watching the queue"). With the
// queue, a message counts as sent when its server accepted it, and as failed when it was given up; log lines
// name the form, the channel, the message id and the failure's code, never an address or a field.
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { DeliveryFailure } from '../queue/failure.js';
import { describeOutgoing, type OutgoingMessage, type QueuedMessage } from '../queue/outgoing.js';
import type { QueueReport } from '../queue/worker.js';
import type { CounterName, Metrics } from './metrics.js';

/** The counter a message adds to when its server accepted it, and the log event that says so. */
function deliveredAs(message: OutgoingMessage): { counter?: CounterName; event: string } {
  if (message.channel === 'telegram') return { event: 'telegram_sent' };
  if (message.channel === 'webhook') return { event: 'webhook_sent' };
  if (message.channel === 'activitypub') return { event: 'activity_sent' };
  if (message.channel === 'webmention') return { event: 'webmention_sent' };
  switch (message.kind) {
    case 'owner':
      return { counter: 'sent', event: 'mail_sent' };
    case 'subscriber_notice':
      return { counter: 'sent', event: 'owner_notified' };
    case 'confirmation':
      return { counter: 'confirmation_sent', event: 'confirmation_sent' };
    case 'receipt':
      return { event: 'receipt_sent' };
    default:
      return { event: 'mail_sent' };
  }
}

/** The counter a message adds to when it was given up. */
function givenUpAs(message: OutgoingMessage): CounterName | undefined {
  if (message.channel === 'telegram') return 'telegram_failed';
  if (message.channel === 'webhook' || message.channel === 'activitypub' || message.channel === 'webmention') return undefined;
  return message.kind === 'receipt' ? 'auto_reply_failed' : 'send_failed';
}

/** The report of the queue of a forms service; `mailServer` ("host:port") is named in SMTP failure lines. */
export function createQueueReport(metrics: Metrics, logger: Logger, mailServer: string | undefined): QueueReport {
  const failureFields = (queued: QueuedMessage, failure: DeliveryFailure) => ({
    form: queued.message.form,
    channel: describeOutgoing(queued.message),
    id: queued.id,
    reason: failure.reason,
    ...(failure.reply === undefined ? {} : { reply: failure.reply }),
    ...(queued.message.channel === 'mail' && mailServer !== undefined ? { server: mailServer } : {}),
  });
  return {
    queued(messages) {
      for (const queued of messages) metrics.count(queued.message.form, 'queued');
    },
    delivered(queued) {
      const { counter, event } = deliveredAs(queued.message);
      if (counter) metrics.count(queued.message.form, counter);
      logger.info({ event, form: queued.message.form, id: queued.id }, `${describeOutgoing(queued.message)} delivered`);
    },
    retrying(queued, failure, attempt) {
      metrics.count(queued.message.form, 'queue_retried');
      logger.warn(
        { event: 'queue_retry', ...failureFields(queued, failure), attempts: attempt.attempts, next_attempt_at: new Date(attempt.nextAttemptAt).toISOString() },
        'delivery failed for now; it will be tried again',
      );
    },
    givenUp(queued, failure, attempts) {
      metrics.count(queued.message.form, 'queue_failed');
      const counter = givenUpAs(queued.message);
      if (counter) metrics.count(queued.message.form, counter);
      logger.error({ event: 'queue_failed', ...failureFields(queued, failure), attempts, permanent: failure.permanent }, 'delivery given up; the message is in queue/failed/');
    },
    storageFailed(action, error) {
      logger.error({ event: 'queue_storage_failed', action, reason: safeReason(error) }, 'a queue file could not be read or written');
    },
  };
}
