// Background work takes turns (catalog/background-turns.ts): one step per event-loop turn, whatever the number of
// tasks, first come first served, so that a request waits behind one step rather than one of each task.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBackgroundTurns } from '../../src/blog/catalog/background-turns.js';

describe('background turns', () => {
  it('let one task step per turn, in the order they asked, however many wait', async () => {
    const turns: Array<() => void> = [];
    const takeTurn = createBackgroundTurns((run) => turns.push(run));
    const steps: string[] = [];
    const task = async (name: string, count: number) => {
      for (let step = 0; step < count; step += 1) {
        await takeTurn();
        steps.push(`${name}${step}`);
      }
    };
    const done = Promise.all([task('a', 3), task('b', 2), task('c', 1)]);
    const perTurn: string[][] = [];
    while (turns.length > 0) {
      assert.equal(turns.length, 1, 'one turn scheduled at a time');
      const before = steps.length;
      turns.shift()!();
      // The task's step runs as the promise settles.
      await new Promise((resolve) => setImmediate(resolve));
      perTurn.push(steps.slice(before));
    }
    await done;
    assert.deepEqual(perTurn, [['a0'], ['b0'], ['c0'], ['a1'], ['b1'], ['a2']]);
  });
});
