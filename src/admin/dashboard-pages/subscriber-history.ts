// A newsletter list over time from its event log (docs/admin.md "Subscribers"): the list's size at the end of
// each of the last days, and how many left it on each. The log is folded in order exactly as the service folds
// it (subscriber-events.ts), so the last day's size is the list the service holds. Pure: lines and `now` come in.
import { addressKey } from '../../newsletter/pending.js';
import { toSubscriberEvent } from '../../newsletter/subscriber-events.js';
import type { DayValue } from './chart-scale.js';

const DAY_MS = 86_400_000;

export interface SubscriberHistory {
  /** The list's size at the end of each day, oldest first. */
  sizes: DayValue[];
  /** Addresses that left the list on each day, oldest first. */
  unsubscribes: DayValue[];
}

/** The `days` UTC days up to the one holding `now`, oldest first, as YYYY-MM-DD and the first millisecond of the first. */
export function dayWindow(days: number, now: number): { first: number; labels: string[] } {
  const date = new Date(now);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  return { first, labels: Array.from({ length: days }, (_, index) => new Date(first + index * DAY_MS).toISOString().slice(0, 10)) };
}

/** Folds the log of `formPath`; an event without a readable time counts before the window. */
export function subscriberHistory(lines: readonly unknown[], formPath: string, days: number, now: number): SubscriberHistory {
  const { first, labels } = dayWindow(days, now);
  const members = new Set<string>();
  const endOfDay: Array<number | undefined> = new Array(days).fill(undefined);
  const left = new Array<number>(days).fill(0);
  let before = 0;
  for (const line of lines) {
    const event = toSubscriberEvent(line, formPath);
    // A change of tags changes no one's membership.
    if (!event || event.event === 'tagged') continue;
    const key = addressKey(formPath, event.email);
    const wasMember = members.has(key);
    if (event.event === 'unsubscribed') members.delete(key);
    else members.add(key);
    const time = Date.parse(event.event === 'unsubscribed' ? event.at : event.subscribed_at);
    const index = Number.isNaN(time) ? -1 : Math.floor((time - first) / DAY_MS);
    if (index < 0) before = members.size;
    else if (index < days) {
      endOfDay[index] = members.size;
      if (event.event === 'unsubscribed' && wasMember) left[index] = (left[index] ?? 0) + 1;
    }
  }
  let size = before;
  const sizes = labels.map((day, index) => {
    size = endOfDay[index] ?? size;
    return { day, value: size };
  });
  return { sizes, unsubscribes: labels.map((day, index) => ({ day, value: left[index] ?? 0 })) };
}
