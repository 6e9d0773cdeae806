// The purge of old sent mails (src/bounces/bounces.ts, docs/bounces.md "Suppression"), on fake time: once at
// start, then every 6 hours, each time forgetting what is older than the bounce records live; nothing after close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceStore } from '../../src/bounces/bounce-store.js';
import { BOUNCE_RECORD_DAYS } from '../../src/bounces/bounce-store.js';
import { createBounces } from '../../src/bounces/bounces.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { captureLogs } from '../support/log-capture.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

const HOUR_MS = 3_600_000;

describe('the purge of old bounce records', () => {
  it('runs at start, then every 6 hours, and not after close', async () => {
    const timers = createFakeTimer();
    const purgedBefore: number[] = [];
    const store = { purgeSent: async (before: number) => (purgedBefore.push(before), 1) } as unknown as BounceStore;
    const logs = captureLogs();
    const bounces = createBounces({
      settings: { address: 'bounces@example.com', soft_limit: 3, soft_days: 30 },
      store,
      subscribers: { removeEverywhere: async () => [] },
      secret: async () => Buffer.alloc(32, 1),
      isOwnerAddress: async () => false,
      clock: timers.now,
      timers,
      randomBytes: createCountingRandomBytes(),
      logger: logs.logger,
    });
    const start = timers.now();
    bounces.start();
    await timers.advance(0);
    assert.deepEqual(purgedBefore, [start - BOUNCE_RECORD_DAYS * 24 * HOUR_MS]);
    await timers.advance(6 * HOUR_MS - 1);
    assert.equal(purgedBefore.length, 1, 'not before 6 hours');
    await timers.advance(1);
    assert.deepEqual(purgedBefore.at(-1), start + 6 * HOUR_MS - BOUNCE_RECORD_DAYS * 24 * HOUR_MS);
    await timers.advance(6 * HOUR_MS);
    assert.equal(purgedBefore.length, 3);
    await bounces.close();
    await timers.advance(24 * HOUR_MS);
    assert.equal(purgedBefore.length, 3, 'nothing after close');
    assert.equal(logs.lines().filter((line) => line.event === 'bounce_records_purged').length, 3);
  });
});
