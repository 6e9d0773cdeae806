// Keeps the claiming store's index in step with the folder: the first read (what is pending is tried at once, as
// retries) and, at most every `rescanIntervalMs`, a read of what other processes did: new segments (`postbox
// queue retry ID`, /admin's Retry), a request to try everything now (`postbox queue retry`), the failed count.
import { rm } from 'node:fs/promises';
import type { ClaimIndex } from './claim-index.js';
import type { FailedFolder } from './failed-folder.js';
import type { FolderReader } from './folder-reader.js';
import type { QueueLayout } from './layout.js';

export interface IndexLoader {
  /** Reads the folder into the index once; resolves when it has been. */
  load(): Promise<void>;
  /** Whether `load` has read the folder. */
  loaded(): boolean;
  /** Loads, then reads what other processes did when `rescanIntervalMs` went by since the last read. */
  refresh(now: number): Promise<void>;
  /** Waits for a read under way. */
  settled(): Promise<void>;
}

interface LoaderParts {
  layout: QueueLayout;
  reader: FolderReader;
  index: ClaimIndex;
  failed: FailedFolder;
}

export function createIndexLoader(parts: LoaderParts, rescanIntervalMs: number): IndexLoader {
  const { layout, reader, index, failed } = parts;
  let loading: Promise<void> | undefined;
  let loaded = false;
  let lastScan = -Infinity;
  let rescanning: Promise<void> | undefined;

  /** Whether `postbox queue retry` asked for every pending message to be tried now (the request is taken). */
  const takeRetryRequest = () => rm(layout.retryRequest).then(
    () => true,
    () => false,
  );

  async function firstRead(): Promise<void> {
    for (const message of await reader.readNew()) index.addFound(message);
    // A request left from before this start asks for nothing more: everything is tried now anyway.
    await takeRetryRequest();
    await failed.recount();
    loaded = true;
  }

  async function rescan(now: number): Promise<void> {
    for (const message of await reader.readNew()) index.addNew(message, now);
    if (await takeRetryRequest()) index.makeRetriesDue(now);
    await failed.recount();
  }

  const loader: IndexLoader = {
    load: () =>
      (loading ??= firstRead().catch((error: unknown) => {
        loading = undefined;
        throw error;
      })),
    loaded: () => loaded,
    async refresh(now) {
      await loader.load();
      if (now - lastScan < rescanIntervalMs) return;
      lastScan = now;
      await (rescanning ??= rescan(now).finally(() => (rescanning = undefined)));
    },
    settled: async () => {
      await rescanning?.catch(() => undefined);
    },
  };
  return loader;
}
