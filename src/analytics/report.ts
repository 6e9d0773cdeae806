// What /admin/analytics shows of a period (docs/analytics.md "In /admin"): views and visitors per day, the top pages
// and referrers, and each form's conversions per page beside that page's views. Pure: the days come in.
import type { DayCounts, Tally } from './day-counts.js';

export interface AnalyticsReport {
  /** Every day of the period, oldest first, with nothing counted as 0. */
  days: Array<{ day: string; views: number; visitors: number }>;
  pages: Array<{ path: string; views: number }>;
  referrers: Array<{ host: string; views: number }>;
  /** Accepted submissions of a form sent from a page, and the views of that page in the period. */
  conversions: Array<{ form: string; page: string; submissions: number; views: number }>;
}

/** The periods /admin/analytics offers, in days. */
export const PERIODS = [7, 30, 365] as const;
export type Period = (typeof PERIODS)[number];

/** The period a query's `days` asks for; 30 unless it names one of PERIODS. */
export function periodOf(query: string): Period {
  const asked = Number(new URLSearchParams(query).get('days'));
  return PERIODS.find((period) => period === asked) ?? 30;
}

/** Rows of the top pages and referrers shown. */
export const TOP_ROWS = 20;

/** The `count` days that end with `today` (YYYY-MM-DD), oldest first. */
export function daysEnding(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}

/** The report of `period` (daysEnding's list) from the stored days. */
export function reportOf(stored: readonly DayCounts[], period: readonly string[]): AnalyticsReport {
  const byDay = new Map(stored.map((counts) => [counts.day, counts]));
  const pages = new Map<string, number>();
  const referrers = new Map<string, number>();
  const conversions = new Map<string, { form: string; page: string; submissions: number }>();
  const days = period.map((day) => {
    const counts = byDay.get(day);
    if (counts === undefined) return { day, views: 0, visitors: 0 };
    addTally(pages, counts.views);
    addTally(referrers, counts.referrers);
    for (const [form, byPage] of Object.entries(counts.conversions)) {
      for (const [page, submissions] of Object.entries(byPage)) {
        const key = `${form}\n${page}`;
        const known = conversions.get(key) ?? { form, page, submissions: 0 };
        known.submissions += submissions;
        conversions.set(key, known);
      }
    }
    return { day, views: sum(counts.views), visitors: counts.visitors };
  });
  return {
    days,
    pages: top(pages).map(([path, views]) => ({ path, views })),
    referrers: top(referrers).map(([host, views]) => ({ host, views })),
    conversions: [...conversions.values()].map((row) => ({ ...row, views: pages.get(row.page) ?? 0 })).sort((a, b) => b.submissions - a.submissions || (a.form + a.page < b.form + b.page ? -1 : 1)),
  };
}

/** Every count of `stored` as CSV rows' fields: day, kind, name, page, count (the export of /admin/analytics.csv). */
export function countRowsOf(stored: readonly DayCounts[]): string[][] {
  const rows: string[][] = [];
  for (const counts of stored) {
    rows.push([counts.day, 'visitors', '', '', String(counts.visitors)]);
    for (const [name, count] of Object.entries(counts.views)) rows.push([counts.day, 'view', name, '', String(count)]);
    for (const [name, count] of Object.entries(counts.referrers)) rows.push([counts.day, 'referrer', name, '', String(count)]);
    for (const [name, count] of Object.entries(counts.widths)) rows.push([counts.day, 'width', name, '', String(count)]);
    for (const [form, byPage] of Object.entries(counts.conversions)) for (const [page, count] of Object.entries(byPage)) rows.push([counts.day, 'conversion', form, page, String(count)]);
  }
  return rows;
}

function addTally(into: Map<string, number>, tally: Tally): void {
  for (const [name, count] of Object.entries(tally)) into.set(name, (into.get(name) ?? 0) + count);
}

function sum(tally: Tally): number {
  let total = 0;
  for (const count of Object.values(tally)) total += count;
  return total;
}

function top(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP_ROWS);
}
