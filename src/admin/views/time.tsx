// Times on the admin pages (docs/configuration.md "[admin]", `time_zone`): a <time> whose datetime is the instant
// in RFC 3339 (UTC), and whose text is that instant in the admin's time zone, "27 Nov 2026, 14:05". One format on
// every page, so nobody has to read raw ISO strings or guess which zone a time is in.

/** How much of the time the text shows: the day, the minute (the default) or the second. */
export type TimePrecision = 'day' | 'minute' | 'second';

export interface TimeProps {
  /** Milliseconds since 1970, or a string Date.parse reads (ISO 8601 / RFC 3339, `YYYY-MM-DD`). */
  at: number | string | undefined;
  /** An IANA time zone name (`[admin] time_zone`, on the session as `timeZone`). */
  zone: string;
  precision?: TimePrecision;
  /** The text when `at` is missing or not a time; by default the string as given, or "unknown time". */
  fallback?: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string, precision: TimePrecision): Intl.DateTimeFormat {
  const key = `${zone} ${precision}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      ...(precision === 'day' ? {} : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const }),
      ...(precision === 'second' ? { second: '2-digit' as const } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** `at` in milliseconds, or undefined when it is missing or names no time. */
export function instantOf(at: number | string | undefined): number | undefined {
  if (at === undefined || at === '') return undefined;
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

/** "27 Nov 2026, 14:05" (or "27 Nov 2026", or "27 Nov 2026, 14:05:09") of `ms` in `zone`. */
export function formatTime(ms: number, zone: string, precision: TimePrecision = 'minute'): string {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterOf(zone, precision).formatToParts(ms)) parts[part.type] = part.value;
  const day = `${parts.day} ${parts.month} ${parts.year}`;
  if (precision === 'day') return day;
  const clock = `${parts.hour}:${parts.minute}${precision === 'second' ? `:${parts.second}` : ''}`;
  return `${day}, ${clock}`;
}

/** The instant as RFC 3339 in UTC: `2026-11-27T13:05:00Z` (milliseconds only when there are some). */
export function rfc3339Of(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export function Time({ at, zone, precision = 'minute', fallback }: TimeProps) {
  const ms = instantOf(at);
  if (ms === undefined) return <>{fallback ?? (typeof at === 'string' && at !== '' ? at : 'unknown time')}</>;
  return <time dateTime={rfc3339Of(ms)}>{formatTime(ms, zone, precision)}</time>;
}
