// What the forms service hands to delivery (docs/delivery.md): plain data, so that a message can wait in the
// queue on disk and be sent by a later process. Secrets (the bot token, the webhook secret) are never part of
// it: the channel is looked up by the form's path when the message is sent.
import type { MailMessage, WebhookEvent } from '../ports.js';

/**
 * Why a mail is sent; the counters of /metrics follow it. `invitation`: an /admin invitation's link (form ''); the
 * `comment_` kinds: the mails of docs/comments.md (form '').
 */
export type MailKind = 'owner' | 'receipt' | 'confirmation' | 'subscriber_notice' | 'newsletter' | 'test' | 'invitation' | 'comment_confirmation' | 'comment_reply' | 'comment_owner';

/** The recipient of a campaign a mail is for (docs/newsletter.md "Sending a post"): its journal records the outcome. */
export interface CampaignRecipient {
  campaign: string;
  /** The recipient's place in the campaign's list, from 0. */
  index: number;
}

/**
 * The ledger claim a welcome mail (or a drip step) was queued under (docs/newsletter.md "Exactly once"): the pair
 * and the time of the claim. The queue sends it only while that claim is still the pair's, so a claim renewed after
 * a kill leaves one mail of the two to go.
 */
export interface AutomationClaim {
  automation: string;
  email: string;
  /** RFC 3339. */
  claimedAt: string;
}

/** The fields a webhook posts (docs/configuration.md "[forms.webhook]"); its id is the queued message's id. */
export type WebhookFields = Omit<WebhookEvent, 'id'>;

export type OutgoingMessage =
  | { channel: 'mail'; form: string; kind: MailKind; mail: MailMessage; recipient?: CampaignRecipient; automation?: AutomationClaim }
  | { channel: 'telegram'; form: string; text: string }
  | { channel: 'webhook'; form: string; fields: WebhookFields }
  // docs/activitypub.md "Delivery": one activity (JSON-LD) to one inbox, signed by the blog's actor when it is sent.
  | { channel: 'activitypub'; form: ''; inbox: string; activity: Record<string, unknown> }
  /** A webmention for one of the blog's posts (docs/comments.md "Sending"); form ''. */
  | { channel: 'webmention'; form: string; source: string; target: string };

/** A message as the queue keeps it: `id` stays the same across retries (webhook receivers drop duplicates by it). */
export interface QueuedMessage {
  id: string;
  /** Milliseconds since the epoch when it was first queued; `queue_max_hours` counts from here. */
  createdAt: number;
  message: OutgoingMessage;
}

/**
 * Sends one message now; rejects when the server did not accept it. Resolves `skipped` when the message is no
 * longer wanted (a campaign mail to an address that unsubscribed while it waited): it leaves the queue unsent.
 */
export type Dispatch = (queued: QueuedMessage) => Promise<void | 'skipped'>;

/** How a message left the queue. */
export type QueueOutcome = 'sent' | 'skipped' | 'failed';

/** The label a log line or a listing gives a message: its channel and, for mail, its kind. */
export function describeOutgoing(message: OutgoingMessage): string {
  return message.channel === 'mail' ? `mail/${message.kind}` : message.channel;
}

/** The lane of a campaign's mails: they go one at a time, so a crash finds at most one of them in flight (docs/newsletter.md "Sending a post"). */
export function campaignLaneOf({ message }: QueuedMessage): string | undefined {
  return message.channel === 'mail' && message.recipient ? campaignLane(message.recipient.campaign) : undefined;
}

/** The lane of the mails of campaign `id`. */
export function campaignLane(id: string): string {
  return `campaign:${id}`;
}
