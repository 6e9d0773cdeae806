// What the queue's segments still hold: which messages of each segment this store wrote or read are not done
// yet, the done.log journal of those that are (kit/files/done-journal.ts), and the marker and state files each
// segment leaves behind. A segment goes, with its files, once all its messages are done; the journal is then
// rewritten with only the done slots of the segments still on disk.
import { rm } from 'node:fs/promises';
import { createDoneJournal } from '../../../kit/files/done-journal.js';
import { parseSlot, type QueueDisk, type QueueLayout, type SegmentLine } from './layout.js';

/** The segments of one queue folder as one store knows them. */
export interface SegmentLedger {
  /** Writes a new segment of `lines`, every one of them open (not done). */
  write(segment: string, lines: readonly SegmentLine[]): Promise<void>;
  /** Whether this store wrote or read `segment` (and it is not gone): a rescan reads only the others. */
  knows(segment: string): boolean;
  /** A segment read from disk, of `size` lines of which `open` are not done; removed at once when none is. */
  adopt(segment: string, open: Set<number>, size: number): Promise<void>;
  /** A marker or state file of `slot` that removing its segment removes too. */
  noteFile(slot: string, file: string): void;
  /** Records `slot` done; its segment goes when it was the last open one. */
  markDone(slot: string): Promise<void>;
  /** `slot` was marked done by another process (its drop marker): it goes with its segment, without a journal line. */
  forget(slot: string): Promise<void>;
  /** A journal line for a slot read as done elsewhere (a move to failed/ that a crash cut short). */
  appendDone(slot: string): Promise<void>;
  /** The slots the journal records. */
  readJournal(): Promise<Set<string>>;
  /** Rewrites the journal with only the done slots of segments on disk: when it grew long, or now with `force`. */
  compact(force?: boolean): Promise<void>;
  close(): Promise<void>;
}

export function createSegmentLedger(layout: QueueLayout, disk: QueueDisk): SegmentLedger {
  /** Slots not yet done, by segment, for the segments this store read or wrote. */
  const openSlots = new Map<string, Set<number>>();
  const segmentSizes = new Map<string, number>();
  /** Marker and state files known to exist, by segment: what removing the segment must remove too. */
  const slotFiles = new Map<string, Set<string>>();
  const journal = createDoneJournal(layout.dir);

  /** The done slots of the segments still on disk: what a rewritten journal keeps. */
  function* liveDone(): Iterable<string> {
    for (const [segment, open] of openSlots) {
      const size = segmentSizes.get(segment) ?? 0;
      for (let at = 0; at < size; at += 1) if (!open.has(at)) yield `${segment}.${at}`;
    }
  }

  /** Marks `slot` done in memory; removes its segment, markers and state once every message of it is done. */
  async function settle(slot: string): Promise<void> {
    const { segment, index } = parseSlot(slot);
    const open = openSlots.get(segment);
    if (!open) return;
    open.delete(index);
    if (open.size === 0) await removeSegment(segment);
  }

  /** The segment first, so that a crash in between leaves markers without a segment, never the reverse. */
  async function removeSegment(segment: string): Promise<void> {
    openSlots.delete(segment);
    const files = slotFiles.get(segment) ?? new Set<string>();
    slotFiles.delete(segment);
    await rm(layout.segmentFile(segment), { force: true });
    // Known until it is gone from disk: a rescan that lists it meanwhile must not take its messages for new ones.
    segmentSizes.delete(segment);
    await Promise.all([...files].map((file) => rm(file, { force: true })));
    await journal.compact(liveDone);
  }

  const ledger: SegmentLedger = {
    async write(segment, lines) {
      await disk.ensureFolders();
      // Known before it appears on disk: a rescan that lists it meanwhile must not take it for another's.
      openSlots.set(segment, new Set(lines.map((_, at) => at)));
      segmentSizes.set(segment, lines.length);
      try {
        await disk.writeDurably(layout.segmentFile(segment), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
      } catch (error) {
        openSlots.delete(segment);
        segmentSizes.delete(segment);
        throw error;
      }
    },
    knows: (segment) => segmentSizes.has(segment),
    async adopt(segment, open, size) {
      openSlots.set(segment, open);
      segmentSizes.set(segment, size);
      if (open.size === 0) await removeSegment(segment);
    },
    noteFile(slot, file) {
      const { segment } = parseSlot(slot);
      let files = slotFiles.get(segment);
      if (!files) slotFiles.set(segment, (files = new Set()));
      files.add(file);
    },
    async markDone(slot) {
      const { segment, index } = parseSlot(slot);
      const open = openSlots.get(segment);
      // The last message of a segment needs no line: the segment itself goes.
      const last = open?.size === 1 && open.has(index);
      // Memory first: a journal rewrite that runs before the line is written keeps it (liveDone).
      open?.delete(index);
      if (!last) await journal.append(slot);
      await settle(slot);
    },
    async forget(slot) {
      ledger.noteFile(slot, layout.doneFile(slot));
      await settle(slot);
    },
    appendDone: (slot) => journal.append(slot),
    readJournal: () => journal.read(),
    compact: (force) => journal.compact(liveDone, force),
    close: () => journal.close(),
  };
  return ledger;
}
