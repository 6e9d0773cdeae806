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
  /** The path of the form signed up on (docs/newsletter.md "Subscriber attributes"); absent on older lines and preference-page joins. */
  source?: string;
  /** The language of the sign-up (the form's field `lang`); absent when it gave none. */
  lang?: string;
}

/** An unsubscription line: the address leaves the list of `form` at `at`. */
export interface UnsubscribedLine {
  event: 'unsubscribed';
  email: string;
  form: string;
  at: string;
}

/** A tags line: the tags of the address's current subscription to the list of `form` are now `tags` (docs/newsletter.md "Subscriber attributes"). */
export interface TaggedLine {
  event: 'tagged';
  email: string;
  form: string;
  tags: readonly string[];
  at: string;
}

export type SubscriberEvent = SubscribedLine | UnsubscribedLine | TaggedLine;

/** One current subscriber: the address as it subscribed last, and when, with what the sign-up told (docs/newsletter.md "Subscriber attributes"). */
export interface Subscriber {
  email: string;
  subscribed_at: string;
  signed_up_at?: string;
  source?: string;
  lang?: string;
  /** Lower-case tags; none when absent. */
  tags?: readonly string[];
}

/** Turns one parsed line into an event of `formPath`, or undefined for a foreign, other-form or unreadable line. */
export function toSubscriberEvent(line: unknown, formPath: string): SubscriberEvent | undefined {
  if (typeof line !== 'object' || line === null) return undefined;
  const value = line as Record<string, unknown>;
  if (typeof value.email !== 'string') return undefined;
  // A line naming another form (a shared file) counts for that form only; a line without `form` counts here.
  if (typeof value.form === 'string' && value.form !== formPath) return undefined;
  if (value.event === 'unsubscribed') return { event: 'unsubscribed', email: value.email, form: formPath, at: String(value.at ?? '') };
  if (value.event === 'tagged') {
    const tags = Array.isArray(value.tags) ? value.tags.filter((tag): tag is string => typeof tag === 'string') : [];
    return { event: 'tagged', email: value.email, form: formPath, tags, at: String(value.at ?? '') };
  }
  if (value.event !== undefined && value.event !== 'subscribed') return undefined;
  return {
    event: 'subscribed',
    email: value.email,
    form: formPath,
    subscribed_at: String(value.subscribed_at ?? ''),
    signed_up_at: String(value.signed_up_at ?? ''),
    ...(typeof value.source === 'string' ? { source: value.source } : {}),
    ...(typeof value.lang === 'string' ? { lang: value.lang } : {}),
  };
}

/**
 * Applies `event` to `list` (keyed by addressKey): a subscription adds or replaces, an unsubscription removes, a
 * tags line sets the tags of a current subscriber (a new subscription starts without any).
 */
export function applySubscriberEvent(list: Map<string, Subscriber>, event: SubscriberEvent): void {
  const key = addressKey(event.form, event.email);
  if (event.event === 'unsubscribed') list.delete(key);
  else if (event.event === 'subscribed') list.set(key, subscriberOf(event));
  else {
    const current = list.get(key);
    if (!current) return;
    const { tags: _dropped, ...rest } = current;
    list.set(key, event.tags.length > 0 ? { ...rest, tags: event.tags } : rest);
  }
}

/** The subscriber a subscription line makes: its address, times, and the attributes it carries. */
function subscriberOf(event: SubscribedLine): Subscriber {
  const subscriber: Subscriber = { email: event.email, subscribed_at: event.subscribed_at };
  if (event.signed_up_at !== '') subscriber.signed_up_at = event.signed_up_at;
  if (event.source !== undefined) subscriber.source = event.source;
  if (event.lang !== undefined) subscriber.lang = event.lang;
  return subscriber;
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
