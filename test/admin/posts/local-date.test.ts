// A local date and time in the admin's time zone, as the editor writes it to a post (src/admin/posts/local-date.ts):
// the offset of that moment, across the changes of the clocks; anything else is not one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localDateTimeIn } from '../../../src/admin/posts/local-date.js';

describe('a local date and time in the admin time zone', () => {
  it('takes the offset of that moment, the first of a doubled hour and the hour after a skipped one', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['2026-12-01 09:30', 'Europe/Berlin', '2026-12-01T09:30:00+01:00'],
      ['2026-07-01T09:30', 'Europe/Berlin', '2026-07-01T09:30:00+02:00'],
      ['2026-03-29 02:30', 'Europe/Berlin', '2026-03-29T03:30:00+02:00'],
      ['2026-10-25 02:30', 'Europe/Berlin', '2026-10-25T02:30:00+02:00'],
      ['2026-12-01 09:30', 'UTC', '2026-12-01T09:30:00Z'],
      ['2026-12-01 09:30', 'America/New_York', '2026-12-01T09:30:00-05:00'],
      ['2026-12-01 09:30:15', 'Asia/Kolkata', '2026-12-01T09:30:15+05:30'],
      ['2026-02-30 09:30', 'UTC', undefined],
      ['2026-12-01 24:00', 'UTC', undefined],
      ['2026-12-01', 'UTC', undefined],
      ['2026-12-01T09:30:00Z', 'UTC', undefined],
      ['2026-12-01T09:30:00+02:00', 'Europe/Berlin', undefined],
    ];
    for (const [text, zone, expected] of cases) assert.equal(localDateTimeIn(text, zone), expected, `${text} in ${zone}`);
  });
});
