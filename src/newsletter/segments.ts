// Segments (docs/newsletter.md "Segments"): which subscribers of a list a saved filter takes, evaluated when a
// campaign is planned over the list as it is then. Pure.
import type { NewsletterSegment } from '../config/config.js';
import type { Subscriber } from './subscriber-events.js';

/**
 * The subscribers of the segment's list that it takes, in their order: every tag of `tags_include` and none of
 * `tags_exclude`, signed up at or after `signed_up_after` and before `signed_up_before`, of language `lang` (its
 * primary tag, `en` taking `en-gb`) and from the form `source`. A criterion left out takes everyone; one the
 * record cannot tell (an older line without language or source) takes no one.
 */
export function segmentMembers(segment: NewsletterSegment, subscribers: readonly Subscriber[]): Subscriber[] {
  return subscribers.filter((subscriber) => isInSegment(segment, subscriber));
}

function isInSegment(segment: NewsletterSegment, subscriber: Subscriber): boolean {
  const tags = new Set(subscriber.tags ?? []);
  if (!segment.tags_include.every((tag) => tags.has(tag))) return false;
  if (segment.tags_exclude.some((tag) => tags.has(tag))) return false;
  if (segment.signed_up_after !== undefined || segment.signed_up_before !== undefined) {
    const signedUp = Date.parse(subscriber.signed_up_at ?? subscriber.subscribed_at);
    if (Number.isNaN(signedUp)) return false;
    if (segment.signed_up_after !== undefined && signedUp < Date.parse(segment.signed_up_after)) return false;
    if (segment.signed_up_before !== undefined && signedUp >= Date.parse(segment.signed_up_before)) return false;
  }
  if (segment.lang !== undefined) {
    const lang = subscriber.lang?.toLowerCase();
    if (lang === undefined || (lang !== segment.lang && !lang.startsWith(`${segment.lang}-`))) return false;
  }
  if (segment.source !== undefined && subscriber.source !== segment.source) return false;
  return true;
}
