// The outgoing-message queue on disk (docs/delivery.md "On disk"), in data_dir/queue:
//   <segment>.jsonl       messages queued together, one JSON line each; written once, never changed
//   done.log              one line per message that left the queue (sent or failed): "<segment>.<n>"
//   done/<segment>.<n>    empty marker: message n was dropped by `postbox queue drop` (another process)
//   state/<segment>.<n>.json   tries so far of a pending message (attempts, next try, last error)
//   failed/<id>.json      a message that was given up, with its last error
//   retry-now             asks a running `serve` to try every pending message now
// Segments are group commits (kit/files/group-commit.ts): every message queued while one write runs goes into the
// next, so an accepted submission costs a share of two fsyncs, not two per message. A segment goes when all its
// messages are done.
//
// The store that claims (the one `serve` worker) is the only writer of the folder's messages in its process and
// keeps their index in memory: claims, leases (which never run out: nobody else sends from the folder) and counts
// are answered from there. What other processes do (`postbox queue drop`, `retry ID`, `retry --all-failed`, and
// /admin's Retry, which uses a store of its own) is picked up by `claim` itself: it reads the folder again at
// most every `rescanIntervalMs`, and looks for a drop marker before it hands out a message.
//
// Its parts, in queue/: the paths and records (layout.ts), the segments and the done.log journal (segments.ts),
// failed/ (failed-folder.ts), reading the folder (folder-reader.ts), the index and claims in memory
// (claim-index.ts) kept in step with the folder (index-loader.ts), and the two sides callers see: the worker's
// (claiming.ts) and the owner's (owner.ts).
import path from 'node:path';
import type { QueueStore } from '../../queue/store.js';
import { createClaimIndex } from './queue/claim-index.js';
import { createClaimingFiles } from './queue/claiming.js';
import { createFailedFolder } from './queue/failed-folder.js';
import { createFolderReader } from './queue/folder-reader.js';
import { createIndexLoader } from './queue/index-loader.js';
import { createQueueDisk, createSegmentNamer, queueLayout } from './queue/layout.js';
import { createOwnerFiles } from './queue/owner.js';
import { createSegmentLedger } from './queue/segments.js';

/** How often a claiming store reads the folder for what other processes did, unless told otherwise. */
const DEFAULT_RESCAN_MS = 2_000;

/** How a files store behaves; the defaults are production's. */
export interface QueueFilesOptions {
  /** How often `claim` reads the folder for what other processes did; 2 s unless given. */
  rescanIntervalMs?: number;
}

/** The folder of the queue under data_dir. */
export function queueDirOf(dataDir: string): string {
  return path.join(dataDir, 'queue');
}

/** A QueueStore in `queueDir`; the folders are made at the first write or load. */
export function createQueueFiles(queueDir: string, options: QueueFilesOptions = {}): QueueStore {
  const layout = queueLayout(queueDir);
  const disk = createQueueDisk(layout);
  const segments = createSegmentLedger(layout, disk);
  const names = createSegmentNamer();
  const failed = createFailedFolder(layout, disk);
  const reader = createFolderReader({ layout, disk, segments, names, failed });
  const index = createClaimIndex();
  const loader = createIndexLoader({ layout, reader, index, failed }, options.rescanIntervalMs ?? DEFAULT_RESCAN_MS);
  const requeued = (message: Parameters<typeof index.addNew>[0], now: number) => {
    if (loader.loaded()) index.addNew(message, now);
  };
  return {
    ...createClaimingFiles({ layout, disk, segments, names, failed, index, loader }),
    ...createOwnerFiles({ layout, disk, segments, names, failed, reader, requeued }),
    fsyncCount: () => disk.fsyncCount(),
    async close() {
      await loader.settled();
      await segments.close();
    },
  };
}
