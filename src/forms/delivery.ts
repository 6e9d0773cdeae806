// Delivery of an accepted submission (docs/forms-api.md "Delivery", docs/delivery.md): one delivery that writes the
// messages of a submission (the owner mail, the chat and webhook notifications, the receipt) and hands them to a
// sink: the queue, which keeps them in one durable write and sends them later (queue-sink.ts), or sending them now
// without the queue, `[mail] queue = false` (send-now-sink.ts).
import type { MessageForm } from '../config/config.js';
import type { OutgoingMessage } from '../queue/outgoing.js';
import { composeChatText, composeOwnerMail, composeReceipt, composeWebhookEvent, type SubmissionNotice } from './notifications.js';

/** `unavailable`: the shared queue (PostgreSQL) could not be reached, so nothing was kept: 503, try again. */
export type DeliveryOutcome = 'delivered' | 'send_failed' | 'unavailable';

/** Where the messages of one submission of `form` go; counts and logs what became of them. */
export type SubmissionSink = (form: MessageForm, messages: readonly OutgoingMessage[]) => Promise<DeliveryOutcome>;

export interface DeliveryDeps {
  sink: SubmissionSink;
  /** `mail.from`. */
  from: string;
  siteNameFor(form: MessageForm): string;
}

/** The messages one submission sends, in the order they are queued: the owner mail first, the receipt last. */
export function submissionMessages(notice: SubmissionNotice & { form: MessageForm }, from: string, siteName: string): OutgoingMessage[] {
  const { form, submission } = notice;
  const messages: OutgoingMessage[] = [{ channel: 'mail', form: form.path, kind: 'owner', mail: composeOwnerMail(notice, { from, owner: form.to }) }];
  if (form.telegram) messages.push({ channel: 'telegram', form: form.path, text: composeChatText(notice) });
  if (form.webhook) {
    // The sink gives the event its id: the queued message's, which stays the same across retries.
    const { id: _unused, ...fields } = composeWebhookEvent(notice, '');
    messages.push({ channel: 'webhook', form: form.path, fields });
  }
  if (form.receipt) messages.push({ channel: 'mail', form: form.path, kind: 'receipt', mail: composeReceipt(submission, from, siteName) });
  return messages;
}

/** Delivers submissions through `deps.sink`. */
export function createDelivery(deps: DeliveryDeps) {
  return function deliver(notice: SubmissionNotice & { form: MessageForm }): Promise<DeliveryOutcome> {
    return deps.sink(notice.form, submissionMessages(notice, deps.from, deps.siteNameFor(notice.form)));
  };
}
