// The queue worker on Node's timers (src/kit/timers.ts), as `serve` runs it: a store that answers its counts
// itself (the files) never arms the count timer, and stopping clears only the timers that were armed.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createQueueFiles } from '../../src/adapters/files/queue-files.js';
import { createQueueWorker, realTimer, type QueueReport } from '../../src/queue/worker.js';
import { createTempDir } from '../support/temp-dir.js';

const report: QueueReport = { queued() {}, delivered() {}, retrying() {}, givenUp() {}, storageFailed() {} };

describe('the queue worker on Node\'s timers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const worker = async () => {
    const temp = await createTempDir('queue-node-timers');
    cleanups.push(temp.remove);
    const policy = { firstDelayMs: 1_000, maxDelayMs: 4_000, maxAgeMs: 600_000 };
    return createQueueWorker({ store: createQueueFiles(temp.dir), dispatch: async () => undefined, policy, timer: realTimer, random: () => 0, report });
  };

  it('stops after a start over the files, which arm no count timer', async () => {
    const queue = await worker();
    await queue.start();
    await queue.stop(0);
    assert.deepEqual(queue.counts(), { pending: 0, failed: 0, fsyncs: 0 });
  });

  it('stops without a start', async () => {
    const queue = await worker();
    await queue.stop(0);
  });
});
