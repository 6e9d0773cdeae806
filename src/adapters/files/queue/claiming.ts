// The claiming side of the files store: what the one `serve` worker calls. Messages are added in group commits
// (kit/files/group-commit.ts: every message queued while one segment is written goes into the next) and join the
// index once their segment is on disk; claims come from the index; settling a message records it on disk
// (done.log, its tries in state/, failed/) before the index lets go of it.
import { writeFile } from 'node:fs/promises';
import type { OutgoingMessage, QueuedMessage } from '../../../queue/outgoing.js';
import type { AttemptRecord, ClaimedMessage, QueueStore } from '../../../queue/store.js';
import { createGroupCommit } from '../../../kit/files/group-commit.js';
import type { ClaimIndex, Entry } from './claim-index.js';
import type { FailedFolder } from './failed-folder.js';
import type { IndexLoader } from './index-loader.js';
import { exists, type DiskMessage, type FailedFile, type QueueDisk, type QueueLayout, type SegmentLine, type SegmentNamer } from './layout.js';
import type { SegmentLedger } from './segments.js';

/** What the claiming side answers; the owner's side (owner.ts) and the store's own life are elsewhere. */
export type ClaimingStore = Pick<QueueStore, 'add' | 'claim' | 'leaseMs' | 'extend' | 'complete' | 'release' | 'fail' | 'pending' | 'counts' | 'countsNow'>;

export interface ClaimingParts {
  layout: QueueLayout;
  disk: QueueDisk;
  segments: SegmentLedger;
  names: SegmentNamer;
  failed: FailedFolder;
  index: ClaimIndex;
  loader: IndexLoader;
}

type LaneOf = (message: QueuedMessage) => string | undefined;

/** Messages of one `add`, waiting for the segment that will hold them. */
interface Waiting {
  messages: readonly OutgoingMessage[];
  laneOf: LaneOf | undefined;
  now: number;
  /** Filled when the segment is made: each message with its id and slot. */
  stored: DiskMessage[];
}

export function createClaimingFiles(parts: ClaimingParts): ClaimingStore {
  const { layout, disk, segments, failed, index, loader } = parts;
  const commitSegment = createGroupCommit<Waiting>((batch) => writeBatch(parts, batch));

  return {
    async add(messages, now, laneOf) {
      if (messages.length === 0) return [];
      // The index first: a message added before it is read would be taken for one of another process.
      await loader.load();
      const waiting: Waiting = { messages, laneOf, now, stored: [] };
      await commitSegment(waiting);
      return waiting.stored.map(({ id, createdAt, message }) => ({ id, createdAt, message }));
    },
    async claim(request, now) {
      await loader.refresh(now);
      const taken = index.take(request, now);
      // `postbox queue drop` may have removed any of them while it waited: a retry, or a new message held back by
      // its lane or by full slots.
      const dropped = await Promise.all(taken.map((entry) => exists(layout.doneFile(entry.slot))));
      return taken.map((entry, at) => claimedOf(entry, dropped[at]!));
    },
    // Leases live in memory and end with the process: a restart tries every pending message again.
    leaseMs: Number.POSITIVE_INFINITY,
    extend: async () => undefined,
    async complete(id) {
      const entry = index.get(id);
      if (!entry) return;
      index.remove(entry);
      await (entry.dropped ? segments.forget(entry.slot) : segments.markDone(entry.slot));
    },
    release: (id, attempt) => release(parts, id, attempt),
    async fail(id, attempt, now) {
      const entry = index.get(id);
      if (!entry) return;
      await disk.ensureFolders();
      // Throws with the message still leased and pending: the worker gives it back for a later try.
      await failed.add(failedRecordOf(entry, attempt, now));
      index.remove(entry);
      // The failed file is the durable record now: a start finishes the move if the journal line is lost.
      await segments.markDone(entry.slot).catch(() => undefined);
    },
    async pending(lane) {
      await loader.load();
      return index.pending(lane);
    },
    async counts() {
      await loader.load();
      return { pending: index.size(), failed: failed.count() };
    },
    countsNow: () => ({ pending: index.size(), failed: failed.count() }),
  };
}

/** One segment for every message added while the previous one was written; they join the index once it is. */
async function writeBatch({ segments, names, index }: ClaimingParts, batch: Waiting[]): Promise<void> {
  const segment = names.next(Date.now());
  const lines: SegmentLine[] = [];
  for (const waiting of batch) {
    waiting.stored = waiting.messages.map((message) => {
      const at = lines.length;
      const queued: QueuedMessage = { id: `msg_${segment}_${at}`, createdAt: waiting.now, message };
      // The lane is asked for once the id is known, and written with the line.
      const lane = waiting.laneOf?.(queued);
      const line: SegmentLine = { id: queued.id, created_at: waiting.now, message, ...(lane === undefined ? {} : { lane }) };
      lines.push(line);
      return { ...queued, slot: `${segment}.${at}`, ...(lane === undefined ? {} : { lane }) };
    });
  }
  await segments.write(segment, lines);
  for (const waiting of batch) for (const stored of waiting.stored) index.addNew(stored, waiting.now);
}

/** A temporary failure: the tries are kept in state/, and the message waits among the retries. */
async function release({ layout, segments, index }: ClaimingParts, id: string, attempt: AttemptRecord): Promise<void> {
  const entry = index.get(id);
  if (!entry) return;
  // Released without a claim (a restart's record, a test): out of its waiting list before it is put back.
  index.detach(entry);
  try {
    // Not fsynced: after a crash the message is tried at once, which is what a lost record would cause anyway.
    await writeFile(layout.stateFile(entry.slot), JSON.stringify(attempt), { mode: 0o600 });
    segments.noteFile(entry.slot, layout.stateFile(entry.slot));
  } finally {
    // Last, and even when the record was not written: once it is among the retries, a claim may take it.
    index.reschedule(entry, attempt);
  }
}

function claimedOf(entry: Entry, dropped: boolean): ClaimedMessage {
  if (dropped) entry.dropped = true;
  return { ...entry.queued, attempts: entry.attempts, retry: entry.retry, ...(entry.dropped ? { dropped: true } : {}) };
}

function failedRecordOf(entry: Entry, attempt: AttemptRecord, now: number): FailedFile {
  return {
    id: entry.queued.id,
    slot: entry.slot,
    created_at: entry.queued.createdAt,
    failed_at: now,
    attempts: attempt.attempts,
    last_error: attempt.lastError,
    message: entry.queued.message,
    ...(entry.lane === undefined ? {} : { lane: entry.lane }),
  };
}
