// The counts of one day (docs/analytics.md "Daily rollups"): what the stores keep and the admin shows, and how a
// batch of new counts is added to them. Pure.

/** Counts by name; made without a prototype, so that any text is a plain key. */
export type Tally = Record<string, number>;

/** The rollup of one UTC day. In a batch, `visitors` is the day's count so far and every other number an increase. */
export interface DayCounts {
  /** YYYY-MM-DD. */
  day: string;
  /** Distinct visitors of the day (docs/analytics.md "Visitors"). */
  visitors: number;
  /** Views by page path. */
  views: Tally;
  /** Views by the host of the referring site. */
  referrers: Tally;
  /** Views by screen width class. */
  widths: Tally;
  /** Accepted submissions by form path, then by page path. */
  conversions: Record<string, Tally>;
}

/** Pages and referrers kept apart per day; the rest of a day's are counted under OTHER (a bound on what a flood can write). */
export const MAX_NAMES_PER_DAY = 5_000;
export const OTHER = '(other)';

/** A tally with nothing in it. */
export function emptyTally(): Tally {
  return Object.create(null) as Tally;
}

/** A day with nothing counted. */
export function emptyDay(day: string): DayCounts {
  return { day, visitors: 0, views: emptyTally(), referrers: emptyTally(), widths: emptyTally(), conversions: Object.create(null) as Record<string, Tally> };
}

/** The number of names of each tally bumped, counted once and then kept, so that a new name costs no walk over the others. */
const sizes = new WeakMap<Tally, number>();

/** Adds `count` to `name` in `tally`, or to OTHER when the tally already holds `limit` names. */
export function bump(tally: Tally, name: string, count = 1, limit = MAX_NAMES_PER_DAY): void {
  // Own names only: a referrer host may be "constructor".
  const known = Object.hasOwn(tally, name) ? tally[name] : undefined;
  if (known !== undefined) {
    tally[name] = known + count;
    return;
  }
  const size = sizes.get(tally) ?? Object.keys(tally).length;
  if (size < limit) {
    tally[name] = count;
    sizes.set(tally, size + 1);
  } else {
    if (!Object.hasOwn(tally, OTHER)) sizes.set(tally, size + 1);
    tally[OTHER] = (Object.hasOwn(tally, OTHER) ? tally[OTHER]! : 0) + count;
  }
}

/** `into` with `batch` added: its increases summed, the larger visitor count kept. */
export function addDay(into: DayCounts, batch: DayCounts): DayCounts {
  into.visitors = Math.max(into.visitors, batch.visitors);
  for (const [name, count] of Object.entries(batch.views)) bump(into.views, name, count);
  for (const [name, count] of Object.entries(batch.referrers)) bump(into.referrers, name, count);
  for (const [name, count] of Object.entries(batch.widths)) bump(into.widths, name, count);
  for (const [form, pages] of Object.entries(batch.conversions)) {
    const known = (into.conversions[form] ??= emptyTally());
    for (const [page, count] of Object.entries(pages)) bump(known, page, count);
  }
  return into;
}

/** A copy of `counts` made of tallies without prototypes. */
export function copyDay(counts: DayCounts): DayCounts {
  return addDay(emptyDay(counts.day), counts);
}

/** A day read from JSON (a file): unknown or malformed parts are left out. */
export function dayFromJson(value: unknown, day: string): DayCounts {
  const counts = emptyDay(day);
  if (typeof value !== 'object' || value === null) return counts;
  const record = value as Record<string, unknown>;
  if (typeof record.visitors === 'number') counts.visitors = record.visitors;
  const tallyOf = (part: unknown, into: Tally) => {
    if (typeof part !== 'object' || part === null) return;
    for (const [name, count] of Object.entries(part)) if (typeof count === 'number' && count > 0) into[name] = count;
  };
  tallyOf(record.views, counts.views);
  tallyOf(record.referrers, counts.referrers);
  tallyOf(record.widths, counts.widths);
  if (typeof record.conversions === 'object' && record.conversions !== null) {
    for (const [form, pages] of Object.entries(record.conversions)) tallyOf(pages, (counts.conversions[form] = emptyTally()));
  }
  return counts;
}
