// The counting of page views and conversions (docs/analytics.md): an event is added to counts in memory and
// answered at once; every second or so the counts go to the store in one batch, the day's visitors hashed then
// with the day's salt. A batch that could not be kept stays in memory for the next flush, and closing flushes what
// is left, so nothing accepted is lost on a graceful stop.
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { Timers } from '../ports.js';
import type { AnalyticsStore, VisitorSets } from './analytics-store.js';
import { addDay, bump, emptyDay, type DayCounts } from './day-counts.js';
import type { PageView } from './page-view.js';
import { dayOf, networkOf, visitorHash } from './visitor.js';

/** How long counts wait in memory before they are written. */
export const FLUSH_DELAY_MS = 1_000;
const DAY_MS = 86_400_000;

export interface AnalyticsDeps {
  store: AnalyticsStore;
  visitors: VisitorSets;
  timers: Timers;
  logger: Logger;
}

/** Where events are counted. */
export interface Analytics {
  /** Counts a page view of the client at `address` with `userAgent` (neither is kept: docs/analytics.md "Privacy"). */
  view(view: PageView, address: string, userAgent: string): void;
  /** Counts an accepted submission of `form` sent from `page`. */
  convert(form: string, page: string): void;
  /** Writes what is counted so far; resolves once it is kept (or, when the store failed, held for the next try). */
  flush(): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

/** The counting of the site `site` (its host: part of each visitor's hash). */
export function createAnalytics(site: string, deps: AnalyticsDeps): Analytics {
  const { store, visitors, timers, logger } = deps;
  let pending = new Map<string, DayCounts>();
  // Per day, the clients seen since the last flush: their network and user agent, hashed when written.
  let clients = new Map<string, Set<string>>();
  let timer: unknown;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  // The day of the last event and when it ends: most events fall on the day before them.
  let today = '';
  let todayEndsAt = 0;
  const currentDay = () => {
    const now = timers.now();
    if (now >= todayEndsAt || now < todayEndsAt - DAY_MS) {
      today = dayOf(now);
      todayEndsAt = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
    }
    return today;
  };
  const dayCounts = (day: string) => {
    let counts = pending.get(day);
    if (counts === undefined) pending.set(day, (counts = emptyDay(day)));
    return counts;
  };
  const schedule = () => {
    if (timer === undefined && !closed) timer = timers.setTimeout(() => void flush(), FLUSH_DELAY_MS);
  };

  async function write(): Promise<void> {
    timer = undefined;
    const batch = pending;
    const seen = clients;
    pending = new Map();
    clients = new Map();
    if (batch.size === 0 && seen.size === 0) return;
    try {
      for (const [day, keys] of seen) {
        const salt = await visitors.saltOf(day);
        const hashes = [...keys].map((key) => {
          const cut = key.indexOf('\n');
          return visitorHash(salt, site, key.slice(0, cut), key.slice(cut + 1));
        });
        const counts = batch.get(day) ?? emptyDay(day);
        counts.visitors = await visitors.add(day, hashes);
        batch.set(day, counts);
      }
      await store.add([...batch.values()]);
    } catch (error) {
      // Kept for the next flush: what was answered is never dropped while the process runs.
      for (const [day, counts] of batch) pending.set(day, addDay(counts, pending.get(day) ?? emptyDay(day)));
      for (const [day, keys] of seen) {
        const now = clients.get(day);
        if (now) for (const key of now) keys.add(key);
        clients.set(day, keys);
      }
      logger.error({ event: 'analytics_write_failed', reason: safeReason(error) }, 'analytics counts could not be written; kept for the next try');
      schedule();
    }
  }

  function flush(): Promise<void> {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    writing = writing.then(write);
    return writing;
  }

  return {
    view(view, address, userAgent) {
      const day = currentDay();
      const counts = dayCounts(day);
      bump(counts.views, view.path);
      if (view.referrer !== '') bump(counts.referrers, view.referrer);
      bump(counts.widths, view.width);
      let seen = clients.get(day);
      if (seen === undefined) clients.set(day, (seen = new Set()));
      seen.add(`${networkOf(address)}\n${userAgent}`);
      schedule();
    },
    convert(form, page) {
      const counts = dayCounts(currentDay());
      const pages = (counts.conversions[form] ??= Object.create(null) as Record<string, number>);
      bump(pages, page);
      schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
