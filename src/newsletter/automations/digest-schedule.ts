// When a digest runs (docs/newsletter.md "Automations"): `every = "week"` on `day` (1 = Monday) or `"month"` on
// `day` (1-28), at `time` in `[admin] time_zone`. Pure: the instants come from Intl's offsets of the zone, so
// a run keeps its local time across the changes of the clocks.

export interface DigestSchedule {
  every: 'week' | 'month';
  day: number;
  /** `HH:MM`. */
  time: string;
}

const DAY_MS = 86_400_000;
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `ms` in `zone`, as UTC milliseconds (the zone's offset added). */
function wallOf(ms: number, zone: string): number {
  let format = dateFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    dateFormats.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The instant whose wall clock in `zone` reads `wall` (UTC fields); a time skipped by the clocks is taken after the change. */
export function instantOfWall(wall: number, zone: string): number {
  const offset = wallOf(wall, zone) - wall;
  const first = wall - offset;
  const again = wall - (wallOf(first, zone) - first);
  return wallOf(again, zone) === wall ? again : first;
}

/** The run of `schedule` on the local day `date` (UTC midnight of its fields), in `zone`. */
function runOn(date: number, schedule: DigestSchedule, zone: string): number {
  const [hours, minutes] = schedule.time.split(':').map(Number) as [number, number];
  return instantOfWall(date + hours * 3_600_000 + minutes * 60_000, zone);
}

/** The local days, around `now`, on which the schedule runs: from the one before the previous to the one after the next. */
function candidateDays(schedule: DigestSchedule, now: number, zone: string): number[] {
  const today = new Date(wallOf(now, zone));
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (schedule.every === 'month') {
    return [-2, -1, 0, 1, 2].map((shift) => Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + shift, schedule.day));
  }
  const weekday = ((today.getUTCDay() + 6) % 7) + 1;
  const thisWeek = midnight + (schedule.day - weekday) * DAY_MS;
  return [-2, -1, 0, 1, 2].map((shift) => thisWeek + shift * 7 * DAY_MS);
}

/** The last run at or before `now`. */
export function lastRunAtOrBefore(schedule: DigestSchedule, now: number, zone: string): number {
  const runs = candidateDays(schedule, now, zone).map((day) => runOn(day, schedule, zone));
  return Math.max(...runs.filter((run) => run <= now));
}

/** The first run after `now`. */
export function nextRunAfter(schedule: DigestSchedule, now: number, zone: string): number {
  const runs = candidateDays(schedule, now, zone).map((day) => runOn(day, schedule, zone));
  return Math.min(...runs.filter((run) => run > now));
}
