// The dashboard's charts as pure functions: the y scale, the bars' heights and labels, the step line, the summary
// sentence and accessible name, the table of numbers, and the sentence that replaces an empty chart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { labelledDays, resolveYScale, shortDate, summarizeCounts, summarizeLevels } from '../../src/admin/dashboard-pages/chart-scale.js';
import { DayChart } from '../../src/admin/dashboard-pages/day-chart.js';
import { layoutDayChart, PLOT } from '../../src/admin/dashboard-pages/day-chart-layout.js';
import { subscriberHistory } from '../../src/admin/dashboard-pages/subscriber-history.js';

const NOUN = { one: 'submission', many: 'submissions' };

/** 30 days ending 2026-11-23 with the given counts on some of them (day of November: count). */
function november(counts: Record<number, number>) {
  return Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2026, 9, 25 + index));
    return { day: date.toISOString().slice(0, 10), value: counts[date.getUTCMonth() === 10 ? date.getUTCDate() : 0] ?? 0 };
  });
}

describe('the y scale', () => {
  it('rounds the top up to a step of 1, 2 or 5 times a power of ten, with 3 to 5 gridlines above 0', () => {
    const cases: Array<[number, number, number]> = [
      [0, 3, 1],
      [1, 3, 1],
      [4, 4, 1],
      [5, 5, 1],
      [6, 6, 2],
      [12, 15, 5],
      [87, 100, 20],
      [100, 100, 20],
      [101, 150, 50],
      [4321, 5000, 1000],
    ];
    for (const [max, top, step] of cases) {
      const scale = resolveYScale(max);
      assert.deepEqual([scale.top, scale.step], [top, step], `max ${max}`);
      assert.ok(scale.ticks.length - 1 >= 3 && scale.ticks.length - 1 <= 5, `max ${max}: ${scale.ticks.join(',')}`);
      assert.equal(scale.ticks.at(-1), top);
    }
  });

  it('labels every fifth day counted back from the last one, in short dates', () => {
    assert.deepEqual(labelledDays(30), [4, 9, 14, 19, 24, 29]);
    assert.equal(shortDate('2026-11-20'), 'Nov 20');
    assert.equal(shortDate('2026-01-05'), 'Jan 5');
  });
});

describe('the bar layout', () => {
  it('gives every day a bar whose height is its share of the top, all on the same baseline', () => {
    const days = november({ 20: 12, 21: 6, 23: 3 });
    const layout = layoutDayChart(days);
    assert.equal(layout.scale.top, 15);
    assert.equal(layout.bars.length, 30);
    const byDay = new Map(layout.bars.map((bar) => [bar.day, bar]));
    assert.equal(byDay.get('2026-11-20')!.height, Math.round(((12 / 15) * PLOT.height) * 10) / 10);
    assert.equal(byDay.get('2026-11-21')!.height, Math.round(((6 / 15) * PLOT.height) * 10) / 10);
    assert.equal(byDay.get('2026-11-22')!.height, 0);
    for (const bar of layout.bars) assert.equal(Math.round((bar.y + bar.height) * 10) / 10, PLOT.bottom);
    // Later days lie further right.
    assert.ok(byDay.get('2026-11-21')!.x > byDay.get('2026-11-20')!.x);
    assert.deepEqual(layout.gridlines.map((line) => line.value), [0, 5, 10, 15]);
    assert.equal(layout.gridlines[0]!.y, PLOT.bottom);
    assert.equal(layout.gridlines.at(-1)!.y, PLOT.top);
    assert.deepEqual(layout.dateLabels.map((label) => label.text), ['Oct 29', 'Nov 3', 'Nov 8', 'Nov 13', 'Nov 18', 'Nov 23']);
  });

  it('draws a step line through the level of every day', () => {
    const layout = layoutDayChart([
      { day: '2026-11-21', value: 0 },
      { day: '2026-11-22', value: 3 },
      { day: '2026-11-23', value: 3 },
    ]);
    assert.equal((layout.stepPath.match(/H/g) ?? []).length, 3);
    assert.match(layout.stepPath, new RegExp(`^M${PLOT.left} ${PLOT.bottom}H`));
  });
});

describe('the summary', () => {
  it('says the total and the busiest day, or that there was nothing', () => {
    assert.equal(summarizeCounts(november({ 20: 12, 21: 6, 5: 1 }), NOUN), '19 submissions in 30 days, most on 2026-11-20 (12)');
    assert.equal(summarizeCounts(november({ 2: 1 }), NOUN), '1 submission in 30 days, most on 2026-11-02 (1)');
    assert.equal(summarizeCounts(november({}), NOUN), 'No submissions in the last 30 days');
    assert.equal(
      summarizeLevels([{ day: '2026-11-22', value: 2 }, { day: '2026-11-23', value: 5 }], { one: 'subscriber', many: 'subscribers' }),
      '5 subscribers on 2026-11-23, 2 on 2026-11-22 (up 3)',
    );
  });
});

describe('the chart element', () => {
  it('is an img named by its title and summary, with every day in a table', () => {
    const html = renderToString(h(DayChart, { id: 'c1', title: 'Submissions per day to /contact', days: november({ 20: 12, 21: 6 }), kind: 'bars', noun: NOUN, valueLabel: 'Submissions' }));
    assert.match(html, /<svg [^>]*role="img"[^>]*aria-labelledby="c1-summary"/);
    assert.match(html, /id="c1-summary">Submissions per day to \/contact: <strong>18 submissions in 30 days, most on 2026-11-20 \(12\)<\/strong>/);
    assert.match(html, /<title id="c1-title">Submissions per day to \/contact<\/title>/);
    assert.equal((html.match(/<rect /g) ?? []).length, 2, 'one bar per day with submissions');
    assert.match(html, /<title>2026-11-20: 12<\/title>/);
    assert.match(html, /<td>2026-11-20<\/td><td>12<\/td>/);
    assert.equal((html.match(/<tr>/g) ?? []).length, 31, 'a header row and one row a day');
    assert.doesNotMatch(html, /style=/);
  });

  it('says there was nothing instead of drawing a flat chart', () => {
    const html = renderToString(h(DayChart, { id: 'c2', title: 'Submissions per day to /contact', days: november({}), kind: 'bars', noun: NOUN, valueLabel: 'Submissions' }));
    assert.doesNotMatch(html, /<svg/);
    assert.match(html, /No submissions in the last 30 days/);
  });
});

describe('a list over time', () => {
  it('folds the log into the size at the end of each day and the unsubscribes per day', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const lines = [
      { event: 'subscribed', email: 'old@example.org', form: '/news', subscribed_at: '2026-01-01T00:00:00Z' },
      { email: 'legacy@example.org', subscribed_at: '2026-11-21T09:00:00Z' },
      { event: 'subscribed', email: 'ann@example.org', form: '/news', subscribed_at: '2026-11-21T10:00:00Z' },
      { event: 'subscribed', email: 'other@example.org', form: '/other', subscribed_at: '2026-11-21T10:00:00Z' },
      { event: 'unsubscribed', email: 'OLD@example.org', form: '/news', at: '2026-11-22T08:00:00Z' },
      { event: 'unsubscribed', email: 'nobody@example.org', form: '/news', at: '2026-11-22T09:00:00Z' },
      { event: 'subscribed', email: 'bob@example.org', form: '/news', subscribed_at: '2026-11-23T08:00:00Z' },
    ];
    const history = subscriberHistory(lines, '/news', 4, now);
    assert.deepEqual(history.sizes, [
      { day: '2026-11-20', value: 1 },
      { day: '2026-11-21', value: 3 },
      { day: '2026-11-22', value: 2 },
      { day: '2026-11-23', value: 3 },
    ]);
    assert.deepEqual(history.unsubscribes.map((day) => day.value), [0, 0, 1, 0]);
  });
});
