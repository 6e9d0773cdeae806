// Tokens taken once (src/bounces/webhooks/replay-guard.ts): a second take within the window fails, a released token
// may be taken again, old tokens are forgotten, and the memory stays bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReplayGuard } from '../../../src/bounces/webhooks/replay-guard.js';

describe('the replay guard', () => {
  it('takes a token once within the window', () => {
    const guard = createReplayGuard(1000);
    assert.equal(guard.take('a', 0), true);
    assert.equal(guard.take('a', 999), false);
    assert.equal(guard.take('b', 999), true);
  });

  it('takes a released token again (a failed request the provider retries)', () => {
    const guard = createReplayGuard(1000);
    guard.take('a', 0);
    guard.release('a');
    assert.equal(guard.take('a', 1), true);
  });

  it('forgets tokens older than the window', () => {
    const guard = createReplayGuard(1000);
    guard.take('a', 0);
    guard.take('b', 500);
    assert.equal(guard.take('c', 1000), true);
    assert.equal(guard.size(), 2);
    assert.equal(guard.take('a', 1000), true);
  });

  it('keeps at most maxTokens, forgetting the oldest first', () => {
    const guard = createReplayGuard(10_000, 3);
    for (const [index, token] of ['a', 'b', 'c', 'd'].entries()) guard.take(token, index);
    assert.equal(guard.size(), 3);
    assert.equal(guard.take('d', 5), false);
    assert.equal(guard.take('a', 5), true);
  });
});
