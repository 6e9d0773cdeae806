// The timer that publishes scheduled posts: one timer to the earliest date, re-armed when it fires early or
// when the wait is longer than setTimeout can hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReleaseTimer } from '../../src/blog/content/release-timer.js';
import { LONGEST_TIMER_MS } from '../../src/kit/timers.js';
import type { Timers } from '../../src/ports.js';
import { createFakeTime } from './fake-time.js';

const START = Date.parse('2030-01-01T00:00:00Z');

function setUp(timers?: Timers) {
  const time = createFakeTime(START);
  let releases = 0;
  const timer = createReleaseTimer({ timers: timers ?? time, now: time.now, onRelease: () => (releases += 1) });
  return { time, timer, releases: () => releases };
}

describe('createReleaseTimer', () => {
  it('fires once at the moment, not a millisecond before', async () => {
    const { time, timer, releases } = setUp();
    timer.arm(START + 5000);
    assert.deepEqual(time.pending(), [START + 5000]);
    await time.advance(4999);
    assert.equal(releases(), 0);
    await time.advance(1);
    assert.equal(releases(), 1);
    await time.advance(60_000);
    assert.equal(releases(), 1);
    assert.deepEqual(time.pending(), []);
  });

  it('keeps one timer: a new arm replaces the old one; Infinity and close disarm', async () => {
    const { time, timer, releases } = setUp();
    timer.arm(START + 5000);
    timer.arm(START + 2000);
    assert.deepEqual(time.pending(), [START + 2000]);
    timer.arm(Infinity);
    assert.deepEqual(time.pending(), []);
    timer.arm(START + 1000);
    timer.close();
    timer.arm(START + 1000);
    await time.advance(10_000);
    assert.deepEqual([releases(), time.pending()], [0, []]);
  });

  it('a date already past fires on the next turn', async () => {
    const { time, timer, releases } = setUp();
    timer.arm(START - 1000);
    assert.deepEqual(time.pending(), [START]);
    await time.advance(0);
    assert.equal(releases(), 1);
  });

  it('waits again when the timer fires before the clock reaches the moment', async () => {
    const time = createFakeTime(START);
    // Timers that fire 3 ms early, as a monotonic timer may against the wall clock.
    const early: Timers = { ...time, setTimeout: (callback, delay) => time.setTimeout(callback, delay > 3 ? delay - 3 : delay) };
    let releases = 0;
    const timer = createReleaseTimer({ timers: early, now: time.now, onRelease: () => (releases += 1) });
    timer.arm(START + 1000);
    await time.advance(997);
    assert.equal(releases, 0);
    assert.equal(time.pending().length, 1, 'armed again for the rest');
    await time.advance(3);
    assert.equal(releases, 1);
  });

  it('cuts a wait longer than setTimeout can hold into steps', async () => {
    const { time, timer, releases } = setUp();
    const at = START + 40 * 24 * 3600 * 1000;
    timer.arm(at);
    assert.deepEqual(time.pending(), [START + LONGEST_TIMER_MS]);
    await time.advance(LONGEST_TIMER_MS);
    assert.equal(releases(), 0);
    assert.deepEqual(time.pending(), [at]);
    await time.advance(at - time.now());
    assert.equal(releases(), 1);
  });
});
