// Post dates (docs/blog.md "Front matter"): `YYYY-MM-DD` or RFC 3339 with an offset. TOML gives Date objects,
// YAML gives strings (or Dates with some schemas); both end up as one normalised value.

export interface PostDate {
  /** `YYYY-MM-DD` as the author wrote it (the local date of an RFC 3339 time). */
  day: string;
  /** What the author wrote, normalised: `YYYY-MM-DD` or RFC 3339 (`T` and `Z` upper case). For sitemaps. */
  text: string;
  /** RFC 3339 instant for feeds; a plain date is midnight UTC. */
  rfc3339: string;
  /** Milliseconds since the epoch, for ordering. */
  time: number;
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export const dateFormatHint = 'must be YYYY-MM-DD or an RFC 3339 date-time with an offset (2024-05-01T10:00:00+02:00)';

/** Normalises a front-matter date, or returns null when it is neither form or not a real calendar date. */
export function normalizeDate(value: unknown): PostDate | null {
  if (value instanceof Date) return fromDateObject(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const day = dayPattern.exec(text);
  if (day) {
    if (!isCalendarDate(Number(day[1]), Number(day[2]), Number(day[3]))) return null;
    return { day: text, text, rfc3339: `${text}T00:00:00Z`, time: Date.parse(`${text}T00:00:00Z`) };
  }
  const dateTime = dateTimePattern.exec(text);
  if (!dateTime) return null;
  const [, year, month, date, hour, minute, second] = dateTime;
  if (!isCalendarDate(Number(year), Number(month), Number(date))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return null;
  // Most dates are written normalised already (`T`, `Z`, no leap second): no string is made for them.
  const normalized = text[10] === 'T' && !text.endsWith('z') ? text : text.replace(/^(.{10})[t ]/, '$1T').replace(/z$/, 'Z');
  const time = Date.parse(second === '60' ? normalized.replace(/:60(?=[.Z+-])/, ':59') : normalized);
  if (Number.isNaN(time)) return null;
  return { day: text.slice(0, 10), text: normalized, rfc3339: normalized, time };
}

// smol-toml's TomlDate says whether it is a plain date, and keeps the written offset in toISOString();
// a local date-time (no offset) has no fixed instant, so it is refused like any other unknown form.
function fromDateObject(value: Date): PostDate | null {
  if (Number.isNaN(value.getTime())) return null;
  const toml = value as Date & { isDate?: () => boolean; isLocal?: () => boolean };
  if (typeof toml.isDate === 'function' && typeof toml.isLocal === 'function') {
    if (toml.isDate()) return fromPlainDate(value);
    if (toml.isLocal()) return null;
  }
  // toISOString always writes milliseconds; "10:00:00.000" was written "10:00:00".
  return normalizeDate(value.toISOString().replace(/\.000(?=[Z+-])/, ''));
}

/**
 * A TOML plain date (midnight UTC): its day read off the date itself, as TomlDate.toISOString() would write it,
 * which is slow enough to show at 100,000 posts.
 */
function fromPlainDate(value: Date): PostDate | null {
  const year = value.getUTCFullYear();
  if (year < 0 || year > 9999) return normalizeDate(value.toISOString());
  const day = `${String(year).padStart(4, '0')}-${String(value.getUTCMonth() + 1).padStart(2, '0')}-${String(value.getUTCDate()).padStart(2, '0')}`;
  return { day, text: day, rfc3339: `${day}T00:00:00Z`, time: value.getTime() };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}
