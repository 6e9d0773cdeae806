import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { createRescanTimer } from '../../src/blog/content/rescan-timer.js';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

const settle = async () => {
  for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
};

describe('createRescanTimer', () => {
  it('rescans every interval while rescans are quick, and stretches the interval when they are slow', async () => {
    let clock = 0;
    let cost = 10;
    const runs: number[] = [];
    const timer = createRescanTimer({
      intervalMs: 1000,
      maxShare: 0.02,
      now: () => clock,
      rescan: async () => {
        runs.push(clock);
        clock += cost;
      },
    });
    mock.timers.tick(999);
    await settle();
    assert.deepEqual(runs, []);
    mock.timers.tick(1);
    await settle();
    assert.deepEqual(runs, [0], 'first rescan after one interval');
    mock.timers.tick(1000);
    await settle();
    assert.equal(runs.length, 2, 'a 10 ms rescan is 1 % of a second: the interval stays');

    cost = 100; // the next rescan takes 100 ms: at most 2 % of the time means 4.9 s before the one after
    mock.timers.tick(1000);
    await settle();
    assert.equal(runs.length, 3);
    mock.timers.tick(4899);
    await settle();
    assert.equal(runs.length, 3);
    mock.timers.tick(1);
    await settle();
    assert.equal(runs.length, 4);
    timer.close();
    mock.timers.tick(60_000);
    await settle();
    assert.equal(runs.length, 4, 'nothing after close');
  });

  it('does nothing with interval 0', async () => {
    let runs = 0;
    createRescanTimer({ intervalMs: 0, maxShare: 0.02, now: () => 0, rescan: async () => void (runs += 1) });
    mock.timers.tick(60_000);
    await settle();
    assert.equal(runs, 0);
  });
});
