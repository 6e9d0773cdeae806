// The owner's side of the files store: `postbox queue list|retry|drop` (in a process of their own) and /admin's
// failed mail. Each call reads the folder as it is now; a running `serve` picks up what they change at its next
// rescan (index-loader.ts), and looks for a drop marker before it sends a message.
import { writeFile } from 'node:fs/promises';
import type { QueueOwnerStore } from '../../../queue/store.js';
import type { FailedFolder } from './failed-folder.js';
import type { FolderReader } from './folder-reader.js';
import type { DiskMessage, QueueDisk, QueueLayout, SegmentLine, SegmentNamer } from './layout.js';
import type { SegmentLedger } from './segments.js';

export interface OwnerParts {
  layout: QueueLayout;
  disk: QueueDisk;
  segments: SegmentLedger;
  names: SegmentNamer;
  failed: FailedFolder;
  reader: FolderReader;
  /** A message put back by `retryFailed`, on disk now: a claiming store indexes it as new. */
  requeued(message: DiskMessage, now: number): void;
}

export function createOwnerFiles(parts: OwnerParts): QueueOwnerStore {
  const { layout, disk, failed, reader } = parts;
  return {
    async listPending() {
      return (await reader.readAll()).map(({ slot: _slot, lane: _lane, ...message }) => message);
    },
    async listFailed() {
      return (await failed.list()).map((file) => ({
        id: file.id,
        createdAt: file.created_at,
        message: file.message,
        failedAt: file.failed_at,
        attempts: file.attempts,
        lastError: file.last_error,
      }));
    },
    retryFailed: (id, now) => retryFailed(parts, id, now),
    async requestRetry() {
      await disk.ensureFolders();
      await writeFile(layout.retryRequest, '');
    },
    async drop(id) {
      if (await failed.read(id)) {
        await failed.remove(id);
        return 'failed';
      }
      const message = (await reader.readAll()).find((entry) => entry.id === id);
      if (!message) return undefined;
      // A claiming store finds the marker when the message's turn comes, and tells the worker it was dropped.
      await writeFile(layout.doneFile(message.slot), '');
      return 'pending';
    },
    // Read from the folder: what other processes did counts at once.
    countFailed: () => failed.countFiles(),
  };
}

/** A new segment with the failed message (same id, a new lifetime), then its failed file goes. */
async function retryFailed({ segments, names, failed, requeued }: OwnerParts, id: string, now: number): Promise<boolean> {
  const file = await failed.read(id);
  if (!file) return false;
  const segment = names.next(now);
  const lane = file.lane === undefined ? {} : { lane: file.lane };
  const line: SegmentLine = { id: file.id, created_at: now, message: file.message, ...lane };
  await segments.write(segment, [line]);
  await failed.remove(id);
  requeued({ id, createdAt: now, message: file.message, slot: `${segment}.0`, ...lane }, now);
  return true;
}
