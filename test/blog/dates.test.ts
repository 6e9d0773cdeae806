import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { normalizeDate } from '../../src/blog/content/dates.js';

describe('normalizeDate: YYYY-MM-DD or RFC 3339 (docs/blog.md "Front matter")', () => {
  const valid: Array<[unknown, { day: string; text: string; rfc3339: string; iso: string }]> = [
    ['2024-05-01', { day: '2024-05-01', text: '2024-05-01', rfc3339: '2024-05-01T00:00:00Z', iso: '2024-05-01T00:00:00.000Z' }],
    ['2024-02-29', { day: '2024-02-29', text: '2024-02-29', rfc3339: '2024-02-29T00:00:00Z', iso: '2024-02-29T00:00:00.000Z' }],
    [
      '2024-05-01T23:30:00-05:00',
      { day: '2024-05-01', text: '2024-05-01T23:30:00-05:00', rfc3339: '2024-05-01T23:30:00-05:00', iso: '2024-05-02T04:30:00.000Z' },
    ],
    [
      '2024-05-01t10:00:00.250z',
      { day: '2024-05-01', text: '2024-05-01T10:00:00.250Z', rfc3339: '2024-05-01T10:00:00.250Z', iso: '2024-05-01T10:00:00.250Z' },
    ],
    ['2024-05-01 10:00:00Z', { day: '2024-05-01', text: '2024-05-01T10:00:00Z', rfc3339: '2024-05-01T10:00:00Z', iso: '2024-05-01T10:00:00.000Z' }],
    [new Date('2024-05-01T10:00:00Z'), { day: '2024-05-01', text: '2024-05-01T10:00:00Z', rfc3339: '2024-05-01T10:00:00Z', iso: '2024-05-01T10:00:00.000Z' }],
    [new Date('2024-05-01T10:00:00.5Z'), { day: '2024-05-01', text: '2024-05-01T10:00:00.500Z', rfc3339: '2024-05-01T10:00:00.500Z', iso: '2024-05-01T10:00:00.500Z' }],
  ];
  for (const [input, expected] of valid) {
    it(`${String(input instanceof Date ? `Date ${input.toISOString()}` : input)}`, () => {
      const date = normalizeDate(input);
      assert.ok(date);
      assert.deepEqual({ day: date.day, text: date.text, rfc3339: date.rfc3339, iso: new Date(date.time).toISOString() }, expected);
    });
  }

  it('takes TOML dates as smol-toml gives them (plain date, offset date-time) and refuses local date-times', () => {
    const parsed = parseToml('a = 2024-05-01\nb = 2024-05-01T10:00:00+02:00\nc = 2024-05-01T10:00:00\nd = 10:00:00');
    assert.equal(normalizeDate(parsed.a)?.text, '2024-05-01');
    assert.equal(normalizeDate(parsed.b)?.text, '2024-05-01T10:00:00+02:00');
    assert.equal(new Date(normalizeDate(parsed.b)!.time).toISOString(), '2024-05-01T08:00:00.000Z');
    assert.equal(normalizeDate(parsed.c), null, 'a local date-time has no instant');
    assert.equal(normalizeDate(parsed.d), null);
  });

  it('reads a TOML plain date as the same date written as text, for any day of years 0 to 9999', () => {
    const day = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(day, (date) => {
        const text = date.toISOString().slice(0, 10);
        assert.deepEqual(normalizeDate(parseToml(`d = ${text}`).d), normalizeDate(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a written day exactly when it is a day of the calendar, for years 0 to 9999 (leap years too)', () => {
    const pad = (value: number, width: number) => String(value).padStart(width, '0');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.boolean(), (year, month, day, withTime) => {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        // Date.parse rolls an impossible day over into the next month: a real day comes back as written.
        const real = new Date(Date.parse(`${text}T00:00:00Z`)).toISOString().slice(0, 10) === text;
        const written = withTime ? `${text}T12:00:00+01:00` : text;
        assert.equal(normalizeDate(written) !== null, real, written);
      }),
      { numRuns: 3000 },
    );
    assert.notEqual(normalizeDate('2000-02-29'), null);
    assert.equal(normalizeDate('1900-02-29'), null);
    assert.equal(normalizeDate('2100-02-29T10:00:00Z'), null);
  });

  for (const input of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-5-1', '01/05/2024', 'yesterday', '2024-05-01T10:00:00', '2024-05-01T25:00:00Z', '', 20240501, null, true]) {
    it(`refuses ${JSON.stringify(input)}`, () => assert.equal(normalizeDate(input), null));
  }
});
