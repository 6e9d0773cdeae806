import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRescanTimer } from '../../src/blog/content/rescan-timer.js';
import { createFakeTimer } from '../support/fake-timers.js';

describe('createRescanTimer', () => {
  it('rescans every interval while rescans are quick, and stretches the interval when they are slow', async () => {
    const time = createFakeTimer(0);
    // The clock a rescan's cost is measured on, apart from the timers' (which move only when the test says).
    let clock = 0;
    let cost = 10;
    const runs: number[] = [];
    const timer = createRescanTimer({
      intervalMs: 1000,
      maxShare: 0.02,
      now: () => clock,
      timers: time,
      rescan: async () => {
        runs.push(clock);
        clock += cost;
      },
    });
    await time.advance(999);
    assert.deepEqual(runs, []);
    await time.advance(1);
    assert.deepEqual(runs, [0], 'first rescan after one interval');
    await time.advance(1000);
    assert.equal(runs.length, 2, 'a 10 ms rescan is 1 % of a second: the interval stays');

    cost = 100; // the next rescan takes 100 ms: at most 2 % of the time means 4.9 s before the one after
    await time.advance(1000);
    assert.equal(runs.length, 3);
    await time.advance(4899);
    assert.equal(runs.length, 3);
    await time.advance(1);
    assert.equal(runs.length, 4);
    timer.close();
    await time.advance(60_000);
    assert.equal(runs.length, 4, 'nothing after close');
  });

  it('does nothing with interval 0', async () => {
    const time = createFakeTimer(0);
    let runs = 0;
    createRescanTimer({ intervalMs: 0, maxShare: 0.02, now: () => 0, timers: time, rescan: async () => void (runs += 1) });
    assert.deepEqual(time.pending(), []);
    await time.advance(60_000);
    assert.equal(runs, 0);
  });
});
