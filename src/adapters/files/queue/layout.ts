// Where the queue keeps what in its folder (src/adapters/files/queue-files.ts has the list of files), the
// records those files hold, and the small readers every part of the files store shares.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { OutgoingMessage } from '../../../queue/outgoing.js';
import type { AttemptRecord, PendingMessage } from '../../../queue/store.js';
import { writeFileAtomically } from '../../../kit/files/atomic-file.js';

const SEGMENT_SUFFIX = '.jsonl';

/** One line of a segment: a message as queued. */
export interface SegmentLine {
  id: string;
  created_at: number;
  message: OutgoingMessage;
  /** The message's lane (a campaign's), kept so that a restart still sends the lane one message at a time. */
  lane?: string;
}

/** A file of failed/: a message that was given up, and where it was (`slot`) until then. */
export interface FailedFile {
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
export interface DiskMessage extends PendingMessage {
  slot: string;
  lane?: string;
}

/** The paths of one queue folder. */
export interface QueueLayout {
  readonly dir: string;
  readonly doneDir: string;
  readonly stateDir: string;
  readonly failedDir: string;
  /** The file by which `postbox queue retry` asks a running `serve` to try every pending message now. */
  readonly retryRequest: string;
  segmentFile(segment: string): string;
  /** The marker of a message dropped by another process. */
  doneFile(slot: string): string;
  /** The tries so far of a pending message. */
  stateFile(slot: string): string;
  failedFile(id: string): string;
}

export function queueLayout(dir: string): QueueLayout {
  const doneDir = path.join(dir, 'done');
  const stateDir = path.join(dir, 'state');
  const failedDir = path.join(dir, 'failed');
  return {
    dir,
    doneDir,
    stateDir,
    failedDir,
    retryRequest: path.join(dir, 'retry-now'),
    segmentFile: (segment) => path.join(dir, `${segment}${SEGMENT_SUFFIX}`),
    doneFile: (slot) => path.join(doneDir, slot),
    stateFile: (slot) => path.join(stateDir, `${slot}.json`),
    failedFile: (id) => path.join(failedDir, `${safeId(id)}.json`),
  };
}

/** Makes the folders and writes durably, counting the fsyncs (docs/performance.md prints them). */
export interface QueueDisk {
  /** Makes the queue's folders, once (again after a failure). */
  ensureFolders(): Promise<void>;
  /** Writes `content` to `file` atomically: its two fsyncs (the file, then the folder) are the queue's disk cost. */
  writeDurably(file: string, content: string): Promise<void>;
  fsyncCount(): number;
}

export function createQueueDisk(layout: QueueLayout): QueueDisk {
  let fsyncs = 0;
  let foldersMade: Promise<unknown> | undefined;
  return {
    async ensureFolders() {
      foldersMade ??= Promise.all([layout.doneDir, layout.stateDir, layout.failedDir].map((folder) => mkdir(folder, { recursive: true }))).catch(
        (error: unknown) => {
          foldersMade = undefined;
          throw error;
        },
      );
      await foldersMade;
    },
    async writeDurably(file, content) {
      await writeFileAtomically(file, content);
      fsyncs += 2;
    },
    fsyncCount: () => fsyncs,
  };
}

/** The segments in the folder, oldest first (their names sort by time). */
export async function listSegments(layout: QueueLayout): Promise<string[]> {
  const names = await readdir(layout.dir);
  return names
    .filter((name) => name.endsWith(SEGMENT_SUFFIX) && !name.startsWith('.'))
    .sort()
    .map((name) => name.slice(0, -SEGMENT_SUFFIX.length));
}

/**
 * A segment name that sorts by time: milliseconds in base 36, then randomness against clashes. Two segments of
 * one millisecond would sort by chance, so a store names them through a SegmentNamer.
 */
function newSegmentName(now: number): string {
  return `${now.toString(36).padStart(9, '0')}${randomBytes(4).toString('hex')}`;
}

/** The time a segment's name begins with; 0 for a name not made by newSegmentName. */
function segmentTime(segment: string): number {
  const time = Number.parseInt(segment.slice(0, 9), 36);
  return Number.isFinite(time) ? time : 0;
}

/** Names new segments of one store, each after every one it made or saw on disk. */
export interface SegmentNamer {
  next(now: number): string;
  saw(segment: string): void;
}

export function createSegmentNamer(): SegmentNamer {
  let newestMs = 0;
  return {
    next(now) {
      newestMs = Math.max(now, newestMs + 1);
      return newSegmentName(newestMs);
    },
    saw(segment) {
      newestMs = Math.max(newestMs, segmentTime(segment));
    },
  };
}

export function parseSlot(slot: string): { segment: string; index: number } {
  const dot = slot.lastIndexOf('.');
  return { segment: slot.slice(0, dot), index: Number(slot.slice(dot + 1)) };
}

/** An id as a file name: ids are made here (`msg_<segment>_<n>`), but one typed on the command line is not. */
function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** A segment line as a pending message at `slot`, with its tries when it has any. */
export function diskMessageOf(line: SegmentLine, slot: string, attempt?: AttemptRecord): DiskMessage {
  return {
    id: line.id,
    createdAt: line.created_at,
    message: line.message,
    slot,
    ...(line.lane === undefined ? {} : { lane: line.lane }),
    ...(attempt ? { attempt } : {}),
  };
}

/** The lines of a segment, undefined for a line that cannot be read; undefined when the file is gone. */
export async function readSegment(file: string): Promise<Array<SegmentLine | undefined> | undefined> {
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

export async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
