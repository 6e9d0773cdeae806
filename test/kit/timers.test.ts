// Node's timers behind the Timers port (src/kit/timers.ts): clearing a timer that was never set does nothing, as
// with Node's clearTimeout (a part stopping before its first timer), and a cleared timer never fires.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { systemTimers } from '../../src/kit/timers.js';

describe('systemTimers', () => {
  it('clears a handle that was never set without throwing', () => {
    assert.doesNotThrow(() => systemTimers.clearTimeout(undefined));
  });

  it('never fires a timer cleared before it was due', async () => {
    let fired = false;
    const handle = systemTimers.setTimeout(() => (fired = true), 0);
    systemTimers.clearTimeout(handle);
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    assert.equal(fired, false);
  });
});
