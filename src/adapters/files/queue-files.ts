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
// most every `rescanIntervalMs`, and looks for a drop marker before it hands out a message that waited.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingMessage, QueuedMessage } from '../../queue/outgoing.js';
import type { AttemptRecord, ClaimedMessage, PendingMessage, QueueCounts, QueueStore } from '../../queue/store.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { createDoneJournal } from '../../kit/files/done-journal.js';
import { createGroupCommit } from '../../kit/files/group-commit.js';

const SEGMENT_SUFFIX = '.jsonl';
const RETRY_REQUEST = 'retry-now';
/** A temp file this old was left by a process that died while writing it. */
const STALE_TEMP_MS = 10 * 60_000;
/** How often a claiming store reads the folder for what other processes did, unless told otherwise. */
const DEFAULT_RESCAN_MS = 2_000;

interface SegmentLine {
  id: string;
  created_at: number;
  message: OutgoingMessage;
  /** The message's lane (a campaign's), kept so that a restart still sends the lane one message at a time. */
  lane?: string;
}

interface FailedFile {
  id: string;
  slot: string;
  created_at: number;
  failed_at: number;
  attempts: number;
  last_error: string;
  message: OutgoingMessage;
  lane?: string;
}

/** A pending message as read from disk: where it is (`slot`: its segment and place in it) and its lane. */
interface DiskMessage extends PendingMessage {
  slot: string;
  lane?: string;
}

/** Messages of one `add`, waiting for the segment that will hold them. */
interface Waiting {
  lines: SegmentLine[];
  laneOf: ((message: QueuedMessage) => string | undefined) | undefined;
  now: number;
  /** Filled when the segment is made: each message with its id and slot. */
  stored: DiskMessage[];
}

/** A pending message in the claiming store's index. */
interface Entry {
  queued: QueuedMessage;
  slot: string;
  lane?: string;
  attempts: number;
  nextAttemptAt: number;
  retry: boolean;
  leased: boolean;
  /** Found dropped by another process at its claim: `complete` forgets it instead of recording it done. */
  dropped: boolean;
}

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
  const rescanIntervalMs = options.rescanIntervalMs ?? DEFAULT_RESCAN_MS;
  const doneDir = path.join(queueDir, 'done');
  const stateDir = path.join(queueDir, 'state');
  const failedDir = path.join(queueDir, 'failed');
  /** Slots not yet done, by segment, for the segments this store read or wrote. */
  const openSlots = new Map<string, Set<number>>();
  const segmentSizes = new Map<string, number>();
  /** Marker and state files known to exist, by segment: what removing the segment must remove too. */
  const slotFiles = new Map<string, Set<string>>();
  const noteFile = (slot: string, file: string) => {
    const { segment } = parseSlot(slot);
    let files = slotFiles.get(segment);
    if (!files) slotFiles.set(segment, (files = new Set()));
    files.add(file);
  };
  let fsyncs = 0;
  /** The time of the newest segment this store made or read: a new one sorts after it (a lane's order on disk). */
  let lastSegmentMs = 0;
  const nextSegmentName = (now: number) => {
    lastSegmentMs = Math.max(now, lastSegmentMs + 1);
    return newSegmentName(lastSegmentMs);
  };
  let foldersMade: Promise<unknown> | undefined;
  let swept = false;
  const journal = createDoneJournal(queueDir);

  // The claiming side's index, filled at the first claim or count (`load`).
  const index = new Map<string, Entry>();
  /** New messages nobody holds, in the order queued. */
  const fresh: Entry[] = [];
  /** Retries nobody holds, soonest first. */
  const retries: Entry[] = [];
  /** Lanes with a message leased now. */
  const busyLanes = new Set<string>();
  let failedCount = 0;
  let loading: Promise<void> | undefined;
  let loaded = false;
  let lastScan = -Infinity;
  let rescanning: Promise<void> | undefined;
  /**
   * Changes to failed/ by this store and the rescan's count of it run one at a time: a count read while a
   * message is being moved there would otherwise be overwritten by (or overwrite) that move's own count.
   */
  let failedChain: Promise<unknown> = Promise.resolve();
  function serialFailed<T>(fn: () => Promise<T>): Promise<T> {
    const next = failedChain.then(fn, fn);
    failedChain = next.catch(() => undefined);
    return next;
  }

  /** The done slots of the segments still on disk: what a rewritten journal keeps. */
  function* liveDone(): Iterable<string> {
    for (const [segment, open] of openSlots) {
      const size = segmentSizes.get(segment) ?? 0;
      for (let at = 0; at < size; at += 1) if (!open.has(at)) yield `${segment}.${at}`;
    }
  }

  const ensureFolders = () =>
    (foldersMade ??= Promise.all([doneDir, stateDir, failedDir].map((folder) => mkdir(folder, { recursive: true }))).catch((error: unknown) => {
      foldersMade = undefined;
      throw error;
    }));
  const doneFile = (slot: string) => path.join(doneDir, slot);
  const stateFile = (slot: string) => path.join(stateDir, `${slot}.json`);
  const failedFile = (id: string) => path.join(failedDir, `${safeId(id)}.json`);

  /** writeFileAtomically, counted: its two fsyncs (the file, then the folder) are the queue's disk cost. */
  async function writeDurably(folder: string, name: string, content: string): Promise<void> {
    await writeFileAtomically(path.join(folder, name), content);
    fsyncs += 2;
  }

  async function writeSegment(lines: SegmentLine[], segment: string): Promise<void> {
    await ensureFolders();
    // Known before it appears on disk: a rescan that lists it meanwhile must not take it for another's.
    openSlots.set(segment, new Set(lines.map((_, at) => at)));
    segmentSizes.set(segment, lines.length);
    try {
      await writeDurably(queueDir, `${segment}${SEGMENT_SUFFIX}`, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    } catch (error) {
      openSlots.delete(segment);
      segmentSizes.delete(segment);
      throw error;
    }
  }

  /** One segment for every message added while the previous one was written; they join the index once it is. */
  const commitSegment = createGroupCommit<Waiting>(async (batch) => {
    const segment = nextSegmentName(Date.now());
    const lines = batch.flatMap((entry) => entry.lines);
    let at = 0;
    for (const entry of batch) {
      entry.stored = entry.lines.map((line) => {
        const queued: QueuedMessage = { id: line.id || `msg_${segment}_${at}`, createdAt: line.created_at, message: line.message };
        // The lane is asked for once the id is known, and written with the line.
        const lane = entry.laneOf?.(queued);
        line.id = queued.id;
        if (lane !== undefined) line.lane = lane;
        return { ...queued, slot: `${segment}.${at++}`, ...(lane === undefined ? {} : { lane }) };
      });
    }
    await writeSegment(lines, segment);
    for (const entry of batch) {
      for (const stored of entry.stored) {
        const added = entryOf(stored, false, entry.now);
        index.set(stored.id, added);
        fresh.push(added);
      }
    }
  });

  /** Marks `slot` done; removes its segment, markers and state once every message of it is done. */
  async function settle(slot: string): Promise<void> {
    const { segment, index: at } = parseSlot(slot);
    const open = openSlots.get(segment);
    if (!open) return;
    open.delete(at);
    if (open.size === 0) await removeSegment(segment);
  }

  /** The segment first, so that a crash in between leaves markers without a segment, never the reverse. */
  async function removeSegment(segment: string): Promise<void> {
    openSlots.delete(segment);
    const files = slotFiles.get(segment) ?? new Set<string>();
    slotFiles.delete(segment);
    await rm(path.join(queueDir, `${segment}${SEGMENT_SUFFIX}`), { force: true });
    // Known until it is gone from disk: a rescan that lists it meanwhile must not take its messages for new ones.
    segmentSizes.delete(segment);
    await Promise.all([...files].map((file) => rm(file, { force: true })));
    await journal.compact(liveDone);
  }

  async function markDone(slot: string): Promise<void> {
    const { segment, index: at } = parseSlot(slot);
    const open = openSlots.get(segment);
    // The last message of a segment needs no line: the segment itself goes.
    const last = open?.size === 1 && open.has(at);
    // Memory first: a journal rewrite that runs before the line is written keeps it (liveDone).
    open?.delete(at);
    if (!last) await journal.append(slot);
    await settle(slot);
  }

  /** Another process marked `slot` done (`postbox queue drop`): its marker goes with the segment. */
  async function forget(slot: string): Promise<void> {
    noteFile(slot, doneFile(slot));
    await settle(slot);
  }

  async function readFailed(): Promise<FailedFile[]> {
    const names = await readdir(failedDir).catch(() => [] as string[]);
    const files: FailedFile[] = [];
    for (const name of names.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.'))) {
      const parsed = await readJson<FailedFile>(path.join(failedDir, name));
      if (parsed) files.push(parsed);
    }
    return files.sort((first, second) => first.failed_at - second.failed_at);
  }

  async function countFailedFiles(): Promise<number> {
    const names = await readdir(failedDir).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).length;
  }

  /** Every pending message on disk; with `onlyNew`, of segments this store has not read yet. */
  async function readPending(onlyNew: boolean): Promise<DiskMessage[]> {
    await ensureFolders();
    const names = (await readdir(queueDir)).filter((name) => name.endsWith(SEGMENT_SUFFIX) && !name.startsWith('.')).sort();
    // A rescan with nothing new to read reads nothing else either (failed/ may hold thousands of files).
    if (onlyNew && swept && names.every((name) => segmentSizes.has(name.slice(0, -SEGMENT_SUFFIX.length)))) return [];
    const failedBySlot = new Map((await readFailed()).map((file) => [file.slot, file]));
    const failedIds = new Set([...failedBySlot.values()].map((file) => file.id));
    // Segments read again by a running store (a rescan) are new ones, which only a drop marker can mark done.
    const journaled = onlyNew && swept ? new Set<string>() : await journal.read();
    const pending: DiskMessage[] = [];
    for (const name of names) {
      const segment = name.slice(0, -SEGMENT_SUFFIX.length);
      lastSegmentMs = Math.max(lastSegmentMs, segmentTime(segment));
      if (onlyNew && segmentSizes.has(segment)) continue;
      const lines = await readSegment(path.join(queueDir, name));
      if (lines === undefined) continue;
      const open = new Set<number>();
      for (const [at, line] of lines.entries()) {
        const slot = `${segment}.${at}`;
        if (line === undefined || journaled.has(slot)) continue;
        if (await exists(doneFile(slot))) {
          if (onlyNew) noteFile(slot, doneFile(slot));
          continue;
        }
        if (failedBySlot.has(slot)) {
          // The process died between writing the failed file and the marker: finish the move.
          if (onlyNew) await journal.append(slot);
          continue;
        }
        if (failedIds.has(line.id) && onlyNew) {
          // `retry` died after writing the new segment and before removing the failed file: finish it.
          await rm(failedFile(line.id), { force: true });
        }
        open.add(at);
        const attempt = await readJson<AttemptRecord>(stateFile(slot));
        if (attempt && onlyNew) noteFile(slot, stateFile(slot));
        pending.push({
          id: line.id,
          createdAt: line.created_at,
          message: line.message,
          slot,
          ...(line.lane === undefined ? {} : { lane: line.lane }),
          ...(attempt ? { attempt } : {}),
        });
      }
      if (onlyNew) {
        openSlots.set(segment, open);
        segmentSizes.set(segment, lines.length);
        if (open.size === 0) await removeSegment(segment);
      }
    }
    if (onlyNew && !swept) {
      swept = true;
      await sweepLeftovers(new Set(names.map((name) => name.slice(0, -SEGMENT_SUFFIX.length))));
      await journal.compact(liveDone, true);
    }
    return pending;
  }

  /** At the first load: markers and tries of segments that are gone (a crash while removing one), stale temp files. */
  async function sweepLeftovers(segments: ReadonlySet<string>): Promise<void> {
    for (const folder of [doneDir, stateDir]) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (!segments.has(parseSlot(name.replace(/\.json$/, '')).segment)) await rm(path.join(folder, name), { force: true });
      }
    }
    for (const folder of [queueDir, failedDir]) {
      for (const name of (await readdir(folder).catch(() => [] as string[])).filter((entry) => entry.startsWith('.') && entry.endsWith('.tmp'))) {
        const file = path.join(folder, name);
        const info = await stat(file).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true });
      }
    }
  }

  /** Whether `postbox queue retry` asked for every pending message to be tried now (the request is taken). */
  async function takeRetryRequest(): Promise<boolean> {
    try {
      await rm(path.join(queueDir, RETRY_REQUEST));
      return true;
    } catch {
      return false;
    }
  }

  function entryOf(message: DiskMessage, retry: boolean, nextAttemptAt: number): Entry {
    const queued: QueuedMessage = { id: message.id, createdAt: message.createdAt, message: message.message };
    const attempts = message.attempt?.attempts ?? 0;
    return { queued, slot: message.slot, ...(message.lane === undefined ? {} : { lane: message.lane }), attempts, nextAttemptAt, retry, leased: false, dropped: false };
  }

  /** Puts `entry` among the waiting retries, after those due at the same time or earlier. */
  function scheduleRetry(entry: Entry): void {
    let low = 0;
    let high = retries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (retries[middle]!.nextAttemptAt <= entry.nextAttemptAt) low = middle + 1;
      else high = middle;
    }
    retries.splice(low, 0, entry);
  }

  /** The first read of the folder: what is pending is tried at once, as retries (new mail still goes first). */
  function load(): Promise<void> {
    return (loading ??= (async () => {
      for (const message of await readPending(true)) {
        if (index.has(message.id)) continue;
        const entry = entryOf(message, true, -Infinity);
        index.set(message.id, entry);
        scheduleRetry(entry);
      }
      // A request left from before this start asks for nothing more: everything is tried now anyway.
      await takeRetryRequest();
      failedCount = await serialFailed(countFailedFiles);
      loaded = true;
    })().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  }

  /** What other processes did since the last read: new segments, a retry request, the failed count. */
  function rescan(now: number): Promise<void> {
    lastScan = now;
    return (rescanning ??= (async () => {
      for (const message of await readPending(true)) {
        if (index.has(message.id)) continue;
        const entry = entryOf(message, false, now);
        index.set(message.id, entry);
        fresh.push(entry);
      }
      if (await takeRetryRequest()) for (const entry of retries) entry.nextAttemptAt = Math.min(entry.nextAttemptAt, now);
      failedCount = await serialFailed(countFailedFiles);
    })().finally(() => (rescanning = undefined)));
  }

  const laneFree = (entry: Entry) => entry.lane === undefined || !busyLanes.has(entry.lane);
  function lease(entry: Entry): void {
    entry.leased = true;
    if (entry.lane !== undefined) busyLanes.add(entry.lane);
  }
  function unlease(entry: Entry): void {
    if (!entry.leased) return;
    entry.leased = false;
    if (entry.lane !== undefined) busyLanes.delete(entry.lane);
  }
  /** Out of the index; also out of the waiting lists when it is settled without a claim. */
  function remove(entry: Entry): void {
    index.delete(entry.queued.id);
    if (entry.leased) return unlease(entry);
    for (const list of [fresh, retries]) {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    }
  }

  return {
    async add(messages, now, laneOf) {
      if (messages.length === 0) return [];
      // The index first: a message added before it is read would be taken for one of another process.
      await load();
      const entry: Waiting = { lines: messages.map((message): SegmentLine => ({ id: '', created_at: now, message })), laneOf, now, stored: [] };
      await commitSegment(entry);
      return entry.stored.map((stored) => ({ id: stored.id, createdAt: stored.createdAt, message: stored.message }));
    },
    async claim({ limit, retryLimit }, now) {
      await load();
      if (now - lastScan >= rescanIntervalMs) await rescan(now);
      const taken: Entry[] = [];
      for (let at = 0; at < fresh.length && taken.length < limit; ) {
        const entry = fresh[at]!;
        if (entry.nextAttemptAt > now || !laneFree(entry)) {
          at += 1;
          continue;
        }
        fresh.splice(at, 1);
        lease(entry);
        taken.push(entry);
      }
      let retriesTaken = 0;
      for (let at = 0; at < retries.length && taken.length < limit && retriesTaken < retryLimit; ) {
        const entry = retries[at]!;
        // In time order: the first one not due ends the due ones.
        if (entry.nextAttemptAt > now) break;
        if (!laneFree(entry)) {
          at += 1;
          continue;
        }
        retries.splice(at, 1);
        lease(entry);
        taken.push(entry);
        retriesTaken += 1;
      }
      // `postbox queue drop` may have removed any of them while it waited: a retry, or a new message held back by
      // its lane or by full slots.
      const dropped = await Promise.all(taken.map((entry) => exists(doneFile(entry.slot))));
      return taken.map((entry, at): ClaimedMessage => {
        if (dropped[at]) entry.dropped = true;
        return { ...entry.queued, attempts: entry.attempts, retry: entry.retry, ...(entry.dropped ? { dropped: true } : {}) };
      });
    },
    // Leases live in memory and end with the process: a restart tries every pending message again.
    leaseMs: Number.POSITIVE_INFINITY,
    extend: async () => undefined,
    async complete(id) {
      const entry = index.get(id);
      if (!entry) return;
      remove(entry);
      await (entry.dropped ? forget(entry.slot) : markDone(entry.slot));
    },
    async release(id, attempt) {
      const entry = index.get(id);
      if (!entry) return;
      if (!entry.leased) {
        // Released without a claim (a restart's record, a test): out of its waiting list before it is put back.
        remove(entry);
        index.set(id, entry);
      }
      Object.assign(entry, { attempts: attempt.attempts, nextAttemptAt: attempt.nextAttemptAt, retry: true });
      try {
        // Not fsynced: after a crash the message is tried at once, which is what a lost record would cause anyway.
        await writeFile(stateFile(entry.slot), JSON.stringify(attempt), { mode: 0o600 });
        noteFile(entry.slot, stateFile(entry.slot));
      } finally {
        // Last, and even when the record was not written: once it is among the retries, a claim may take it.
        unlease(entry);
        scheduleRetry(entry);
      }
    },
    async fail(id, attempt, now) {
      const entry = index.get(id);
      if (!entry) return;
      await ensureFolders();
      const record: FailedFile = {
        id,
        slot: entry.slot,
        created_at: entry.queued.createdAt,
        failed_at: now,
        attempts: attempt.attempts,
        last_error: attempt.lastError,
        message: entry.queued.message,
        ...(entry.lane === undefined ? {} : { lane: entry.lane }),
      };
      // Throws with the message still leased and pending: the worker gives it back for a later try.
      await serialFailed(async () => {
        await writeDurably(failedDir, `${safeId(id)}.json`, JSON.stringify(record));
        failedCount += 1;
      });
      remove(entry);
      // The failed file is the durable record now: a start finishes the move if the journal line is lost.
      await markDone(entry.slot).catch(() => undefined);
    },
    async pending(lane) {
      await load();
      return [...index.values()].filter((entry) => lane === undefined || entry.lane === lane).map((entry) => entry.queued);
    },
    async counts() {
      await load();
      return { pending: index.size, failed: failedCount };
    },
    countsNow: (): QueueCounts => ({ pending: index.size, failed: failedCount }),
    async listPending() {
      return (await readPending(false)).map(({ slot: _slot, lane: _lane, ...message }) => message);
    },
    async listFailed() {
      return (await readFailed()).map((file) => ({
        id: file.id,
        createdAt: file.created_at,
        message: file.message,
        failedAt: file.failed_at,
        attempts: file.attempts,
        lastError: file.last_error,
      }));
    },
    async retryFailed(id, now) {
      const file = await readJson<FailedFile>(failedFile(id));
      if (!file || file.id !== id) return false;
      const segment = nextSegmentName(now);
      const line: SegmentLine = { id: file.id, created_at: now, message: file.message, ...(file.lane === undefined ? {} : { lane: file.lane }) };
      await writeSegment([line], segment);
      await serialFailed(async () => {
        await rm(failedFile(id), { force: true });
        if (loaded) failedCount = await countFailedFiles();
      });
      if (loaded && !index.has(id)) {
        const entry = entryOf({ id, createdAt: now, message: file.message, slot: `${segment}.0`, ...(file.lane === undefined ? {} : { lane: file.lane }) }, false, now);
        index.set(id, entry);
        fresh.push(entry);
      }
      return true;
    },
    async requestRetry() {
      await ensureFolders();
      await writeFile(path.join(queueDir, RETRY_REQUEST), '');
    },
    async drop(id) {
      // The file name is the id made safe, so look inside: another id may map to the same name.
      if ((await readJson<FailedFile>(failedFile(id)))?.id === id) {
        await serialFailed(async () => {
          await rm(failedFile(id), { force: true });
          if (loaded) failedCount = await countFailedFiles();
        });
        return 'failed';
      }
      const message = (await readPending(false)).find((entry) => entry.id === id);
      if (!message) return undefined;
      // A claiming store finds the marker when the message's turn comes, and tells the worker it was dropped.
      await writeFile(doneFile(message.slot), '');
      return 'pending';
    },
    // The owner's count, read from the folder: what other processes did counts at once.
    countFailed: countFailedFiles,
    fsyncCount: () => fsyncs,
    async close() {
      await rescanning?.catch(() => undefined);
      await journal.close();
    },
  };
}

/**
 * A segment name that sorts by time: milliseconds in base 36, then randomness against clashes. Two segments of
 * one millisecond would sort by chance, so a store never names two alike (nextSegmentName).
 */
function newSegmentName(now: number): string {
  return `${now.toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;
}

/** The time a segment's name begins with; 0 for a name not made by newSegmentName. */
function segmentTime(segment: string): number {
  const time = Number.parseInt(segment.slice(0, 9), 36);
  return Number.isFinite(time) ? time : 0;
}

function parseSlot(slot: string): { segment: string; index: number } {
  const dot = slot.lastIndexOf('.');
  return { segment: slot.slice(0, dot), index: Number(slot.slice(dot + 1)) };
}

/** An id as a file name: ids are made here (`msg_<segment>_<n>`), but one typed on the command line is not. */
function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}

async function readSegment(file: string): Promise<Array<SegmentLine | undefined> | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      try {
        const parsed = JSON.parse(line) as SegmentLine;
        return typeof parsed.id === 'string' && typeof parsed.created_at === 'number' && parsed.message ? parsed : undefined;
      } catch {
        return undefined;
      }
    });
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
