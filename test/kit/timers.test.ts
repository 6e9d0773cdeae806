// Node's timers behind the Timers port (src/kit/timers.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemTimers } from '../../src/kit/timers.js';

describe('systemTimers', () => {
  it('ignores clearing a handle never set, as Node does', () => {
    assert.doesNotThrow(() => systemTimers.clearTimeout(undefined));
  });
});
