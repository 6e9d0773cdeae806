// Reading the queue's folder for the messages still pending: every one of them (`postbox queue list`, `drop`), or,
// for the claiming store, those of segments it has not read yet (at its start, and at each rescan for what other
// processes queued). The claiming store's reads also finish what a crash cut short and, the first time, sweep
// what a crash left.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AttemptRecord } from '../../../queue/store.js';
import type { FailedFolder } from './failed-folder.js';
import { diskMessageOf, exists, listSegments, parseSlot, readJson, readSegment, type DiskMessage, type FailedFile, type QueueDisk, type QueueLayout, type SegmentLine, type SegmentNamer } from './layout.js';
import type { SegmentLedger } from './segments.js';

/** A temp file this old was left by a process that died while writing it. */
const STALE_TEMP_MS = 10 * 60_000;

export interface FolderReader {
  /** Every pending message on disk, read without changing anything. */
  readAll(): Promise<DiskMessage[]>;
  /** The pending messages of segments the ledger does not know yet, which it knows from then on. */
  readNew(): Promise<DiskMessage[]>;
}

/** What tells a pending line from one that left the queue. */
interface DoneSlots {
  journaled: Set<string>;
  failedBySlot: Map<string, FailedFile>;
  failedIds: Set<string>;
}

interface ReaderParts {
  layout: QueueLayout;
  disk: QueueDisk;
  segments: SegmentLedger;
  names: SegmentNamer;
  failed: FailedFolder;
}

export function createFolderReader(parts: ReaderParts): FolderReader {
  const { layout, disk, segments, names, failed } = parts;
  /** Whether the first read of a claiming store ran: later ones read new segments only, without the journal. */
  let swept = false;

  async function read(taking: boolean): Promise<DiskMessage[]> {
    await disk.ensureFolders();
    const onDisk = await listSegments(layout);
    for (const segment of onDisk) names.saw(segment);
    // A rescan with nothing new to read reads nothing else either (failed/ may hold thousands of files).
    if (taking && swept && onDisk.every((segment) => segments.knows(segment))) return [];
    // Segments read again by a running store (a rescan) are new ones, which only a drop marker can mark done.
    const done = await readDoneSlots(taking && swept);
    const pending: DiskMessage[] = [];
    for (const segment of onDisk) {
      if (taking && segments.knows(segment)) continue;
      pending.push(...(await readSegmentPending(segment, done, taking)));
    }
    if (taking && !swept) {
      swept = true;
      await sweepLeftovers(layout, new Set(onDisk));
      await segments.compact(true);
    }
    return pending;
  }

  async function readDoneSlots(withoutJournal: boolean): Promise<DoneSlots> {
    const failedBySlot = new Map((await failed.list()).map((file) => [file.slot, file]));
    const failedIds = new Set([...failedBySlot.values()].map((file) => file.id));
    return { journaled: withoutJournal ? new Set() : await segments.readJournal(), failedBySlot, failedIds };
  }

  /** The pending messages of one segment; `taking`: the ledger knows the segment from now on. */
  async function readSegmentPending(segment: string, done: DoneSlots, taking: boolean): Promise<DiskMessage[]> {
    const lines = await readSegment(layout.segmentFile(segment));
    if (lines === undefined) return [];
    const open = new Set<number>();
    const pending: DiskMessage[] = [];
    for (const [at, line] of lines.entries()) {
      const message = line && (await readPendingLine(line, `${segment}.${at}`, done, taking));
      if (!message) continue;
      open.add(at);
      pending.push(message);
    }
    if (taking) await segments.adopt(segment, open, lines.length);
    return pending;
  }

  /** The line at `slot` as a pending message, or undefined when it left the queue. */
  async function readPendingLine(line: SegmentLine, slot: string, done: DoneSlots, taking: boolean): Promise<DiskMessage | undefined> {
    if (done.journaled.has(slot)) return undefined;
    if (await exists(layout.doneFile(slot))) {
      if (taking) segments.noteFile(slot, layout.doneFile(slot));
      return undefined;
    }
    if (done.failedBySlot.has(slot)) {
      // The process died between writing the failed file and the journal line: finish the move.
      if (taking) await segments.appendDone(slot);
      return undefined;
    }
    // `retry` died after writing the new segment and before removing the failed file: finish it.
    if (done.failedIds.has(line.id) && taking) await rm(layout.failedFile(line.id), { force: true });
    const attempt = await readJson<AttemptRecord>(layout.stateFile(slot));
    if (attempt && taking) segments.noteFile(slot, layout.stateFile(slot));
    return diskMessageOf(line, slot, attempt);
  }

  return { readAll: () => read(false), readNew: () => read(true) };
}

/** At a claiming store's first read: markers and tries of segments that are gone (a crash while removing one), stale temp files. */
async function sweepLeftovers(layout: QueueLayout, segments: ReadonlySet<string>): Promise<void> {
  for (const folder of [layout.doneDir, layout.stateDir]) {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (!segments.has(parseSlot(name.replace(/\.json$/, '')).segment)) await rm(path.join(folder, name), { force: true });
    }
  }
  for (const folder of [layout.dir, layout.failedDir]) {
    for (const name of (await readdir(folder).catch(() => [] as string[])).filter((entry) => entry.startsWith('.') && entry.endsWith('.tmp'))) {
      const file = path.join(folder, name);
      const info = await stat(file).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true });
    }
  }
}
