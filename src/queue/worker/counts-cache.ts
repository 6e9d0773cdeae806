// The counts the worker answers at once: from the store's own index where it keeps one (files, `countsNow`),
// else the last counts read (PostgreSQL, read again every `countIntervalMs`), moved by what this worker queued.
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { QueueCounts, QueueStore } from '../store.js';
import type { QueueReport } from './report.js';

export interface CountsCache {
  /** Reads the counts (at start); a store that cannot be read keeps the last ones. */
  read(): Promise<void>;
  /** Reads them again unless a read is under way; errors keep the last ones. */
  refresh(): void;
  /** `queued` more messages are pending. */
  queued(count: number): void;
  now(): QueueCounts;
  /** Waits for a read under way. */
  settled(): Promise<void>;
}

export function createCountsCache(store: QueueStore, report: QueueReport): CountsCache {
  let cached: QueueCounts = { pending: 0, failed: 0 };
  let counting: Promise<void> | undefined;
  return {
    async read() {
      cached = await store.counts().catch((error: unknown) => {
        if (!(error instanceof UnavailableError)) report.storageFailed('counts', error);
        return cached;
      });
    },
    refresh() {
      counting ??= store
        .counts()
        .then((counts) => {
          cached = counts;
        })
        .catch(() => undefined)
        .finally(() => (counting = undefined));
    },
    queued(count) {
      cached = { ...cached, pending: cached.pending + count };
    },
    now: () => store.countsNow?.() ?? cached,
    settled: async () => {
      await counting;
    },
  };
}
