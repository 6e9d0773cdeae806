// The numbers behind the dashboard's charts (docs/admin.md "Dashboard"): a y axis with a round top and 3 to 5
// gridlines, the days that get a date label, and the one-sentence summary a screen reader and the caption share.
// Pure: the counts come in, positions and words go out.

/** One day's value: a count of submissions, or the size of a list at the end of that day. */
export interface DayValue {
  /** YYYY-MM-DD (UTC). */
  day: string;
  value: number;
}

/** A y axis from 0 to `top` with a gridline every `step` (3 to 5 of them above 0). */
export interface YScale {
  top: number;
  step: number;
  ticks: number[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The smallest round scale (steps of 1, 2 or 5 times a power of ten) whose top reaches `max`; whole numbers only. */
export function resolveYScale(max: number): YScale {
  const wanted = Math.max(1, Math.ceil(max));
  let step = 1;
  for (let power = 1; ; power *= 10) {
    const found = [1, 2, 5].map((factor) => factor * power).find((candidate) => Math.ceil(wanted / candidate) <= 5);
    if (found !== undefined) {
      step = found;
      break;
    }
  }
  const gridlines = Math.max(3, Math.ceil(wanted / step));
  const ticks = Array.from({ length: gridlines + 1 }, (_, index) => index * step);
  return { top: gridlines * step, step, ticks };
}

/** "Nov 20" for "2026-11-20": short enough to sit under a bar. */
export function shortDate(day: string): string {
  const month = MONTHS[Number(day.slice(5, 7)) - 1] ?? day.slice(5, 7);
  return `${month} ${Number(day.slice(8, 10))}`;
}

/** The indexes of the days that get a date label: every `every`-th counted back from the last day, which always has one. */
export function labelledDays(count: number, every = 5): number[] {
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= every) indexes.unshift(index);
  return indexes;
}

/** "87 submissions in 30 days, most on 2026-11-20 (12)"; "No submissions in the last 30 days" when all are 0. */
export function summarizeCounts(days: readonly DayValue[], noun: { one: string; many: string }): string {
  const total = days.reduce((sum, day) => sum + day.value, 0);
  if (total === 0) return `No ${noun.many} in the last ${days.length} days`;
  // The latest day of the highest count: the most recent peak is the one people ask about.
  const peak = days.reduce((best, day) => (day.value >= best.value ? day : best));
  return `${total} ${total === 1 ? noun.one : noun.many} in ${days.length} days, most on ${peak.day} (${peak.value})`;
}

/** "12 subscribers on 2026-11-23, 9 on 2026-10-25 (up 3)": the first and last day of a list's size. */
export function summarizeLevels(days: readonly DayValue[], noun: { one: string; many: string }): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return `No ${noun.many}`;
  const change = last.value - first.value;
  const trend = change === 0 ? 'no change' : change > 0 ? `up ${change}` : `down ${-change}`;
  return `${last.value} ${last.value === 1 ? noun.one : noun.many} on ${last.day}, ${first.value} on ${first.day} (${trend})`;
}
