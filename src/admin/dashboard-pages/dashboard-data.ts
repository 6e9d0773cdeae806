// What /admin shows, gathered from the sources (docs/admin.md "Dashboard"): per archived form its submissions per
// day, per form with spam its submissions taken for spam per day, per newsletter form its list's size per day, the
// running service's counters, the posts, the queue's sizes.
import type { NewsletterForm } from '../../config/config.js';
import { dayCountsOf } from '../inbox/archive-reader.js';
import type { MetricsSnapshot } from '../../forms/metrics.js';
import type { DayValue } from './chart-scale.js';
import { isArchived, type DashboardSources } from './dashboard-sources.js';
import { subscriberHistory } from './subscriber-history.js';

/** How many days the charts cover. */
export const CHART_DAYS = 30;

export interface Dashboard {
  submissions: Array<{ form: string; days: DayValue[] }>;
  /** The forms that had submissions taken for spam in the chart's days, in the config's order; undefined without a quarantine. */
  spam?: Array<{ form: string; days: DayValue[] }>;
  /** Message forms without an archive: they have no chart, and the page says how to get one. */
  unarchived: string[];
  subscribers: Array<{ form: string; days: DayValue[] }>;
  /** Undefined when no forms service runs in this process. */
  counters?: MetricsSnapshot;
  /** Undefined without a blog. */
  /**
   * `published` counts posts as the blog API lists them (a slug with a published version, its translations one post
   * with it); the others count files (versions) in that state, each translation its own.
   */
  posts?: { published: number; drafts: number; scheduled: number; broken: number };
  /** Undefined without `[mail] queue`. */
  queue?: { pending: number; failed: number };
  /** Undefined without `[blog.comments]`. */
  comments?: { waiting: number };
}

export async function gatherDashboard(sources: DashboardSources): Promise<Dashboard> {
  const now = sources.clock();
  const submissions = await Promise.all(
    sources.forms.filter(isArchived).map(async (form) => ({
      form: form.path,
      days: (await sources.countSubmissions(form, CHART_DAYS, now)).map(({ day, count }) => ({ day, value: count })),
    })),
  );
  const spam = sources.spam && (await spamPerDay(sources.spam, sources.forms, now));
  const newsletters = sources.forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  const subscribers = await Promise.all(
    newsletters.map(async (form) => ({ form: form.path, days: subscriberHistory(await sources.readSubscriberLines(form), form.path, CHART_DAYS, now).sizes })),
  );
  const versions = sources.listVersions();
  const readings = sources.readings();
  return {
    submissions,
    ...(spam === undefined ? {} : { spam }),
    unarchived: sources.forms.filter((form) => form.type !== 'newsletter' && !isArchived(form)).map((form) => form.path),
    subscribers,
    counters: readings?.snapshot(),
    posts: versions && {
      published: new Set(versions.filter((version) => version.state === 'published').map((version) => version.slug)).size,
      drafts: versions.filter((version) => version.state === 'draft').length,
      scheduled: versions.filter((version) => version.state === 'scheduled').length,
      broken: versions.filter((version) => version.state === 'broken').length,
    },
    queue: await queueSizesOf(sources),
    comments: sources.countWaitingComments && { waiting: await sources.countWaitingComments() },
  };
}

/** Per form of the config with any in the chart's days: the submissions taken for spam each UTC day, released ones too. */
async function spamPerDay(store: NonNullable<DashboardSources['spam']>, forms: DashboardSources['forms'], now: number): Promise<Dashboard['spam']> {
  const { first, counts } = dayCountsOf(CHART_DAYS, now);
  const found = await store.countByDay(first);
  return forms.flatMap((form) => {
    const ofForm = new Map(found.filter((count) => count.form === form.path).map((count) => [count.day, count.count]));
    if (ofForm.size === 0) return [];
    return [{ form: form.path, days: counts.map(({ day }) => ({ day, value: ofForm.get(day) ?? 0 })) }];
  });
}

/**
 * Pending: the running queue's own count when it runs here, else what the files hold (a serve elsewhere). Failed:
 * always the files, so that a retry from /admin shows at once (the worker recounts them only on its next rescan).
 */
async function queueSizesOf(sources: DashboardSources): Promise<Dashboard['queue']> {
  if (!sources.queue) return undefined;
  const running = sources.readings()?.queueCounts?.();
  return { pending: running ? running.pending : (await sources.queue.listPending()).length, failed: await sources.queue.countFailed() };
}
