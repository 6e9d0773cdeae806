// Node's timers behind the Timers port (src/kit/timers.ts): a wait runs once, a cleared one never, and clearing a
// timer that was never started is no error, as with Node's own clearTimeout (a service stops whichever timers ran).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemTimers } from '../../src/kit/timers.js';

describe('systemTimers', () => {
  it('runs a wait once and never a cleared one', async () => {
    const fired: string[] = [];
    const cleared = systemTimers.setTimeout(() => fired.push('cleared'), 0);
    systemTimers.clearTimeout(cleared);
    await new Promise<void>((resolve) => systemTimers.setTimeout(() => (fired.push('ran'), resolve()), 0));
    assert.deepEqual(fired, ['ran']);
  });

  it('clears a handle that was never set without an error', () => {
    assert.doesNotThrow(() => systemTimers.clearTimeout(undefined));
  });
});
