// The queue's files (src/adapters/files/queue-files.ts) held to the QueueStore contract: the claiming store is
// `serve`'s and also the second claimer (one process owns data_dir), `postbox queue ...` is a store of its own
// over the same folder, and a restart is a new store over it. Every claim reads the folder again
// (rescanIntervalMs 0), so what another process did counts at the next claim.
import { afterEach, describe } from 'node:test';
import { createQueueFiles } from '../../../src/adapters/files/queue-files.js';
import type { QueueStore } from '../../../src/queue/store.js';
import { queueStoreContract } from '../../support/queue-store-contract.js';
import { createTempDir } from '../../support/temp-dir.js';

describe('the queue files under the QueueStore contract', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  queueStoreContract(async () => {
    const temp = await createTempDir('queue-contract');
    cleanups.push(temp.remove);
    const open = (): QueueStore => {
      const store = createQueueFiles(temp.dir, { rescanIntervalMs: 0 });
      cleanups.push(() => store.close());
      return store;
    };
    const store = open();
    return { store, other: store, owner: open(), reopen: async () => open() };
  });
});
