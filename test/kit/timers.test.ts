// Node's timers behind the Timers port (src/kit/timers.ts): clearing a handle never set clears nothing, as Node's
// own clearTimeout does, so a queue worker stopped before one of its timers started stops cleanly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemTimers } from '../../src/kit/timers.js';

describe('systemTimers', () => {
  it('clears an absent handle without throwing', () => {
    assert.doesNotThrow(() => systemTimers.clearTimeout(undefined));
    systemTimers.clearTimeout(systemTimers.setTimeout(() => assert.fail('cleared'), 0));
  });
});
