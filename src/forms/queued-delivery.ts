// Delivery with the queue on (docs/delivery.md "What 200 means"): every message of a submission (owner mail,
// chat and webhook notifications, receipt) is written to the queue in one durable write, and the submission
// counts as delivered once they are there; the queue sends them. Only a failed write makes it `send_failed`.
import type { MessageForm } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { OutgoingMessage } from '../queue/outgoing.js';
import { safeReason } from '../kit/safe-reason.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import type { DeliveryOutcome } from './delivery.js';
import type { Metrics } from './metrics.js';
import { composeChatText, composeOwnerMail, composeReceipt, composeWebhookEvent, type SubmissionNotice } from './notifications.js';

export interface QueuedDeliveryDeps {
  enqueue(messages: readonly OutgoingMessage[]): Promise<void>;
  metrics: Metrics;
  logger: Logger;
  /** `mail.from`. */
  from: string;
  siteNameFor(form: MessageForm): string;
}

/** The messages one submission sends, in the order they are queued. */
export function submissionMessages(notice: SubmissionNotice & { form: MessageForm }, from: string, siteName: string): OutgoingMessage[] {
  const { form, submission } = notice;
  const messages: OutgoingMessage[] = [{ channel: 'mail', form: form.path, kind: 'owner', mail: composeOwnerMail(notice, { from, owner: form.to }) }];
  if (form.telegram) messages.push({ channel: 'telegram', form: form.path, text: composeChatText(notice) });
  if (form.webhook) {
    // The queue gives the event its id: the queued message's, which stays the same across retries.
    const { id: _unused, ...fields } = composeWebhookEvent(notice, '');
    messages.push({ channel: 'webhook', form: form.path, fields });
  }
  if (form.receipt) messages.push({ channel: 'mail', form: form.path, kind: 'receipt', mail: composeReceipt(submission, from, siteName) });
  return messages;
}

export function createQueuedDelivery(deps: QueuedDeliveryDeps) {
  return async function deliver(notice: SubmissionNotice & { form: MessageForm }): Promise<DeliveryOutcome> {
    const { form } = notice;
    try {
      await deps.enqueue(submissionMessages(notice, deps.from, deps.siteNameFor(form)));
      return 'delivered';
    } catch (error) {
      deps.metrics.count(form.path, 'send_failed');
      if (error instanceof UnavailableError) {
        // Nothing was kept, so nothing is sent: the client may try again, on this replica or another.
        deps.logger.warn({ event: 'queue_unavailable', form: form.path, part: error.part }, 'mail queue unreachable: submission refused');
        return 'unavailable';
      }
      deps.logger.error({ event: 'queue_write_failed', form: form.path, reason: safeReason(error) }, 'the messages of a submission could not be queued');
      return 'send_failed';
    }
  };
}
