// When a digest runs (docs/newsletter.md "Automations"): a weekday or a day of the month at a local time in
// `[admin] time_zone`, the same local time on both sides of a change of the clocks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastRunAtOrBefore, nextRunAfter } from '../../../src/newsletter/automations/digest-schedule.js';

const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the digest schedule', () => {
  it('runs weekly on its weekday at its local time', () => {
    const monday = { every: 'week' as const, day: 1, time: '09:00' };
    // Wednesday 7 January 2026 in Berlin (UTC+1).
    assert.equal(iso(lastRunAtOrBefore(monday, at('2026-01-07T12:00:00Z'), 'Europe/Berlin')), '2026-01-05T08:00:00.000Z');
    assert.equal(iso(nextRunAfter(monday, at('2026-01-07T12:00:00Z'), 'Europe/Berlin')), '2026-01-12T08:00:00.000Z');
    // At the very minute, the run is due; a minute before, the last one is a week back.
    assert.equal(iso(lastRunAtOrBefore(monday, at('2026-01-12T08:00:00Z'), 'Europe/Berlin')), '2026-01-12T08:00:00.000Z');
    assert.equal(iso(lastRunAtOrBefore(monday, at('2026-01-12T07:59:00Z'), 'Europe/Berlin')), '2026-01-05T08:00:00.000Z');
  });

  it('runs monthly on its day, and keeps its local time across a change of the clocks', () => {
    const monthly = { every: 'month' as const, day: 28, time: '18:30' };
    assert.equal(iso(lastRunAtOrBefore(monthly, at('2026-04-02T00:00:00Z'), 'Europe/Berlin')), '2026-03-28T17:30:00.000Z');
    // Summer time from 29 March: 18:30 in Berlin is 16:30 UTC.
    assert.equal(iso(nextRunAfter(monthly, at('2026-04-02T00:00:00Z'), 'Europe/Berlin')), '2026-04-28T16:30:00.000Z');
    assert.equal(iso(nextRunAfter(monthly, at('2026-12-30T00:00:00Z'), 'America/New_York')), '2027-01-28T23:30:00.000Z');
  });

  it('takes a local day that starts before UTC does', () => {
    const sunday = { every: 'week' as const, day: 7, time: '08:00' };
    // Sunday 4 January 2026, 08:00 in Auckland (UTC+13) is Saturday 19:00 UTC.
    assert.equal(iso(nextRunAfter(sunday, at('2026-01-03T12:00:00Z'), 'Pacific/Auckland')), '2026-01-03T19:00:00.000Z');
  });
});
