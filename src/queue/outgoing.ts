// What the forms service hands to delivery (docs/delivery.md): plain data, so that a message can wait in the
// queue on disk and be sent by a later process. Secrets (the bot token, the webhook secret) are never part of
// it: the channel is looked up by the form's path when the message is sent.
import type { MailMessage, WebhookEvent } from '../ports.js';

/** Why a mail is sent; the counters of /metrics follow it. */
export type MailKind = 'owner' | 'receipt' | 'confirmation' | 'subscriber_notice' | 'test';

/** The fields a webhook posts (docs/configuration.md "[forms.webhook]"); its id is the queued message's id. */
export type WebhookFields = Omit<WebhookEvent, 'id'>;

export type OutgoingMessage =
  | { channel: 'mail'; form: string; kind: MailKind; mail: MailMessage }
  | { channel: 'telegram'; form: string; text: string }
  | { channel: 'webhook'; form: string; fields: WebhookFields };

/** A message as the queue keeps it: `id` stays the same across retries (webhook receivers drop duplicates by it). */
export interface QueuedMessage {
  id: string;
  /** Milliseconds since the epoch when it was first queued; `queue_max_hours` counts from here. */
  createdAt: number;
  message: OutgoingMessage;
}

/** Sends one message now; rejects when the server did not accept it. */
export type Dispatch = (queued: QueuedMessage) => Promise<void>;

/** The label a log line or a listing gives a message: its channel and, for mail, its kind. */
export function describeOutgoing(message: OutgoingMessage): string {
  return message.channel === 'mail' ? `mail/${message.kind}` : message.channel;
}
