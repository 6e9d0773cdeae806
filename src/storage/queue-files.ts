// The mail queue on disk (docs/delivery.md "On disk"), in data_dir/queue:
//   <segment>.jsonl       messages queued together, one JSON line each; written once, never changed
//   done.log              one line per message that left the queue (sent or failed): "<segment>.<n>"
//   done/<segment>.<n>    empty marker: message n was dropped by `postbox queue drop` (another process)
//   state/<segment>.<n>.json   tries so far of a pending message (attempts, next try, last error)
//   failed/<id>.json      a message that was given up, with its last error
//   retry-now             asks a running `serve` to try every pending message now
// Segments are group commits: every message queued while one write runs goes into the next, so an accepted
// submission costs a share of two fsyncs, not two per message. A segment goes when all its messages are done.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingMessage } from '../queue/outgoing.js';
import type { AttemptRecord, PendingMessage, QueueStore, StoredMessage } from '../queue/store.js';
import { writeFileAtomically } from '../files/atomic-file.js';
import { createDoneJournal } from '../files/done-journal.js';

const SEGMENT_SUFFIX = '.jsonl';
const RETRY_REQUEST = 'retry-now';
/** A temp file this old was left by a process that died while writing it. */
const STALE_TEMP_MS = 10 * 60_000;

interface SegmentLine {
  id: string;
  created_at: number;
  message: OutgoingMessage;
}

interface FailedFile {
  id: string;
  slot: string;
  created_at: number;
  failed_at: number;
  attempts: number;
  last_error: string;
  message: OutgoingMessage;
}

/** The folder of the queue under data_dir. */
export function queueDirOf(dataDir: string): string {
  return path.join(dataDir, 'queue');
}

/** A QueueStore in `queueDir`; the folders are made at the first write or load. */
export function createQueueFiles(queueDir: string): QueueStore {
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
  let foldersMade: Promise<unknown> | undefined;
  let waiting: Array<{ lines: SegmentLine[]; stored: StoredMessage[]; resolve(): void; reject(error: unknown): void }> = [];
  let writing = false;
  let swept = false;
  const journal = createDoneJournal(queueDir);
  /** The done slots of the segments still on disk: what a rewritten journal keeps. */
  function* liveDone(): Iterable<string> {
    for (const [segment, open] of openSlots) {
      const size = segmentSizes.get(segment) ?? 0;
      for (let index = 0; index < size; index += 1) if (!open.has(index)) yield `${segment}.${index}`;
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
    openSlots.set(segment, new Set(lines.map((_, index) => index)));
    segmentSizes.set(segment, lines.length);
    try {
      await writeDurably(queueDir, `${segment}${SEGMENT_SUFFIX}`, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    } catch (error) {
      openSlots.delete(segment);
      segmentSizes.delete(segment);
      throw error;
    }
  }

  async function flush(): Promise<void> {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const segment = newSegmentName(Date.now());
      const lines = batch.flatMap((entry) => entry.lines);
      let index = 0;
      for (const entry of batch) {
        entry.stored = entry.lines.map((line) => ({ id: line.id || `msg_${segment}_${index}`, createdAt: line.created_at, message: line.message, slot: `${segment}.${index++}` }));
        entry.lines.forEach((line, at) => (line.id = entry.stored[at]!.id));
      }
      try {
        await writeSegment(lines, segment);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writing = false;
  }

  /** Marks `slot` done; removes its segment, markers and state once every message of it is done. */
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
    await rm(path.join(queueDir, `${segment}${SEGMENT_SUFFIX}`), { force: true });
    // Known until it is gone from disk: a rescan that lists it meanwhile must not take its messages for new ones.
    segmentSizes.delete(segment);
    await Promise.all([...files].map((file) => rm(file, { force: true })));
    await journal.compact(liveDone);
  }

  async function markDone(slot: string): Promise<void> {
    const { segment, index } = parseSlot(slot);
    const open = openSlots.get(segment);
    // The last message of a segment needs no line: the segment itself goes.
    const last = open?.size === 1 && open.has(index);
    // Memory first: a journal rewrite that runs before the line is written keeps it (liveDone).
    open?.delete(index);
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

  /** Every pending message on disk; with `onlyNew`, of segments this store has not read yet. */
  async function readPending(onlyNew: boolean): Promise<PendingMessage[]> {
    await ensureFolders();
    const names = (await readdir(queueDir)).filter((name) => name.endsWith(SEGMENT_SUFFIX) && !name.startsWith('.')).sort();
    // A rescan with nothing new to read reads nothing else either (failed/ may hold thousands of files).
    if (onlyNew && swept && names.every((name) => segmentSizes.has(name.slice(0, -SEGMENT_SUFFIX.length)))) return [];
    const failedBySlot = new Map((await readFailed()).map((file) => [file.slot, file]));
    const failedIds = new Set([...failedBySlot.values()].map((file) => file.id));
    // Segments read again by a running store (a rescan) are new ones, which only a drop marker can mark done.
    const journaled = onlyNew && swept ? new Set<string>() : await journal.read();
    const pending: PendingMessage[] = [];
    for (const name of names) {
      const segment = name.slice(0, -SEGMENT_SUFFIX.length);
      if (onlyNew && segmentSizes.has(segment)) continue;
      const lines = await readSegment(path.join(queueDir, name));
      if (lines === undefined) continue;
      const open = new Set<number>();
      for (const [index, line] of lines.entries()) {
        const slot = `${segment}.${index}`;
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
        open.add(index);
        const attempt = await readJson<AttemptRecord>(stateFile(slot));
        if (attempt && onlyNew) noteFile(slot, stateFile(slot));
        pending.push({ id: line.id, createdAt: line.created_at, message: line.message, slot, ...(attempt ? { attempt } : {}) });
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

  return {
    add(messages, now) {
      if (messages.length === 0) return Promise.resolve([]);
      return new Promise<StoredMessage[]>((resolve, reject) => {
        const entry = {
          lines: messages.map((message) => ({ id: '', created_at: now, message })),
          stored: [] as StoredMessage[],
          resolve: () => resolve(entry.stored),
          reject,
        };
        waiting.push(entry);
        if (!writing) void flush();
      });
    },
    loadNew: () => readPending(true),
    listPending: () => readPending(false),
    isDone: (slot) => exists(doneFile(slot)),
    complete: markDone,
    forget,
    async recordAttempt(slot, attempt) {
      // Not fsynced: after a crash the message is tried at once, which is what a lost record would cause anyway.
      await writeFile(stateFile(slot), JSON.stringify(attempt), { mode: 0o600 });
      noteFile(slot, stateFile(slot));
    },
    async fail(message, attempt, now) {
      await ensureFolders();
      const record: FailedFile = {
        id: message.id,
        slot: message.slot,
        created_at: message.createdAt,
        failed_at: now,
        attempts: attempt.attempts,
        last_error: attempt.lastError,
        message: message.message,
      };
      await writeDurably(failedDir, `${safeId(message.id)}.json`, JSON.stringify(record));
      // The failed file is the durable record now: a start finishes the move if the journal line is lost.
      await markDone(message.slot).catch(() => undefined);
    },
    async takeRetryRequest() {
      try {
        await rm(path.join(queueDir, RETRY_REQUEST));
        return true;
      } catch {
        return false;
      }
    },
    async countFailed() {
      const names = await readdir(failedDir).catch(() => [] as string[]);
      return names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).length;
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
      const segment = newSegmentName(now);
      await writeSegment([{ id: file.id, created_at: now, message: file.message }], segment);
      await rm(failedFile(id), { force: true });
      return true;
    },
    async requestRetry() {
      await ensureFolders();
      await writeFile(path.join(queueDir, RETRY_REQUEST), '');
    },
    async drop(id) {
      // The file name is the id made safe, so look inside: another id may map to the same name.
      if ((await readJson<FailedFile>(failedFile(id)))?.id === id) {
        await rm(failedFile(id), { force: true });
        return 'failed';
      }
      const message = (await readPending(false)).find((entry) => entry.id === id);
      if (!message) return undefined;
      await writeFile(doneFile(message.slot), '');
      return 'pending';
    },
    fsyncCount: () => fsyncs,
    close: () => journal.close(),
  };
}

/** A segment name that sorts by time: milliseconds in base 36, then randomness against clashes. */
function newSegmentName(now: number): string {
  return `${now.toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;
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
