// The subscriber log as a log of events (docs/newsletter.md "The subscriber log"): `subscribed` lines (old lines
// without `event` are subscriptions too) and `unsubscribed` lines; the current list is the log folded in order.
// Pure: no I/O, times come in the lines.
import { addressKey } from './pending.js';

/** A subscription line: the documented fields plus `event`; times are RFC 3339 UTC. */
export interface SubscribedLine {
  event: 'subscribed';
  email: string;
  form: string;
  subscribed_at: string;
  signed_up_at: string;
}

/** An unsubscription line: the address leaves the list of `form` at `at`. */
export interface UnsubscribedLine {
  event: 'unsubscribed';
  email: string;
  form: string;
  at: string;
}

export type SubscriberEvent = SubscribedLine | UnsubscribedLine;

/** One current subscriber: the address as it subscribed last, and when. */
export interface Subscriber {
  email: string;
  subscribed_at: string;
}

/** Turns one parsed line into an event of `formPath`, or undefined for a foreign, other-form or unreadable line. */
export function toSubscriberEvent(line: unknown, formPath: string): SubscriberEvent | undefined {
  if (typeof line !== 'object' || line === null) return undefined;
  const value = line as Record<string, unknown>;
  if (typeof value.email !== 'string') return undefined;
  // A line naming another form (a shared file) counts for that form only; a line without `form` counts here.
  if (typeof value.form === 'string' && value.form !== formPath) return undefined;
  if (value.event === 'unsubscribed') return { event: 'unsubscribed', email: value.email, form: formPath, at: String(value.at ?? '') };
  if (value.event !== undefined && value.event !== 'subscribed') return undefined;
  return {
    event: 'subscribed',
    email: value.email,
    form: formPath,
    subscribed_at: String(value.subscribed_at ?? ''),
    signed_up_at: String(value.signed_up_at ?? ''),
  };
}

/** Applies `event` to `list` (keyed by addressKey): a subscription adds or replaces, an unsubscription removes. */
export function applySubscriberEvent(list: Map<string, Subscriber>, event: SubscriberEvent): void {
  const key = addressKey(event.form, event.email);
  if (event.event === 'unsubscribed') list.delete(key);
  else list.set(key, { email: event.email, subscribed_at: event.subscribed_at });
}

/** The current subscribers of `formPath`: the lines folded in order, in order of their last subscription. */
export function foldSubscriberLog(lines: readonly unknown[], formPath: string): Map<string, Subscriber> {
  const list = new Map<string, Subscriber>();
  for (const line of lines) {
    const event = toSubscriberEvent(line, formPath);
    if (!event) continue;
    // Delete first so that a re-subscription moves to the end, keeping the order of the last subscriptions.
    if (event.event === 'subscribed') list.delete(addressKey(formPath, event.email));
    applySubscriberEvent(list, event);
  }
  return list;
}
