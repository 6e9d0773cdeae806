// A date and time typed without an offset in the editor (docs/admin.md "Posts"): read in the admin's `time_zone`
// and written to the post as RFC 3339 with that zone's offset at that moment, so the file names one instant and
// says which local time was meant (`2026-12-01 09:30` in Europe/Berlin is `2026-12-01T09:30:00+01:00`).

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2}))?$/;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The offset of `zone` from UTC at the instant `ms`, in minutes (Berlin in winter: 60). */
function offsetMinutesOf(ms: number, zone: string): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * `text` as RFC 3339 with the offset of `zone` when it is a local date and time (`YYYY-MM-DD HH:MM[:SS]`, with `T`
 * or a space), else undefined. A time that does not exist there (the hour skipped when clocks go forward) is taken
 * as the same time after the change; one that exists twice, as the first.
 */
export function localDateTimeIn(text: string, zone: string): string | undefined {
  const match = LOCAL_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = '00'] = match.slice(1).map((part) => part ?? '00') as [string, string, string, string, string, string];
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (new Date(wall).getUTCDate() !== Number(day)) return undefined;
  // The offset before and after the wall time: equal but around a change of the clocks.
  const early = offsetMinutesOf(wall - 86_400_000, zone);
  const late = offsetMinutesOf(wall + 86_400_000, zone);
  const candidates = [early, late].map((offset) => wall - offset * 60_000).filter((instant, index, all) => all.indexOf(instant) === index);
  const exact = candidates.filter((instant) => instant + offsetMinutesOf(instant, zone) * 60_000 === wall).sort((a, b) => a - b);
  const instant = exact[0] ?? wall - early * 60_000;
  const offset = offsetMinutesOf(instant, zone);
  const local = new Date(instant + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const zoneText = offset === 0 ? 'Z' : `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${zoneText}`;
}
