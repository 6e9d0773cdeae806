// Durable JSONL. Appends to one file are group commits (group-commit.ts): the lines that arrive while a write
// and its fsync run go in the next write, in the order they were appended, and share its fsync, so under load a
// line costs a share of an fsync instead of one of its own; each append resolves only once the fsync that covers
// its line is done. A failed write or fsync rejects every append of its batch, and the file is
// truncated back so that no half-written line is left behind; a line torn by a crash never swallows the next
// append (which then starts after a newline of its own), and can be cut at start.
import { open, readFile } from 'node:fs/promises';
import { createGroupCommit, type GroupCommit } from './group-commit.js';

/** Appends `record` as one JSON line to `file` and fsyncs it; appends to one file land in call order. */
export type JsonlAppend = (file: string, record: unknown) => Promise<void>;

/** Runs `task` when no append to `file` runs, and holds later appends back until it is done (a rewrite of the file). */
export type FileExclusive = <T>(file: string, task: () => Promise<T>) => Promise<T>;

/** What the appender does with an open file: node:fs/promises' FileHandle, or a test's stand-in that counts or fails. */
export interface AppendTarget {
  stat(): Promise<{ size: number }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer, offset: number, length: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface JsonlFilesOptions {
  /** Opens `file` for reading and appending, creating it (0600) when missing; node:fs/promises' open unless given. */
  open?: (file: string) => Promise<AppendTarget>;
}

/**
 * An appender, and a way to rewrite a file it appends to: it keeps the queue of each file, so that two writes
 * to one file never interleave and no append runs while the file is being replaced. The composition root makes
 * one for the whole process (two of them on one file would not see each other).
 */
export function createJsonlFiles(options: JsonlFilesOptions = {}): { append: JsonlAppend; exclusive: FileExclusive } {
  const openFile = options.open ?? ((file: string) => open(file, 'a+', 0o600));
  const queues = new Map<string, Promise<unknown>>();
  const inTurn = <T>(file: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(file) ?? Promise.resolve();
    const next = previous.then(task, task);
    queues.set(file, next);
    void next
      .finally(() => {
        if (queues.get(file) === next) queues.delete(file);
      })
      .catch(() => undefined);
    return next;
  };
  /** The group commit of each file with appends in flight, and how many are. */
  const groups = new Map<string, { commit: GroupCommit<Buffer>; pending: number }>();
  return {
    append: (file, record) => {
      const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
      let group = groups.get(file);
      if (!group) {
        // A batch takes its turn like a rewrite does: it never runs while the file is being replaced.
        group = { commit: createGroupCommit<Buffer>((lines) => inTurn(file, () => appendNow(openFile, file, lines))), pending: 0 };
        groups.set(file, group);
      }
      const own = group;
      own.pending += 1;
      const done = own.commit(line);
      void done
        .finally(() => {
          own.pending -= 1;
          if (own.pending === 0 && groups.get(file) === own) groups.delete(file);
        })
        .catch(() => undefined);
      return done;
    },
    exclusive: inTurn,
  };
}

/** The appender of createJsonlFiles alone. */
export function createJsonlAppender(): JsonlAppend {
  return createJsonlFiles().append;
}

/** Appends `lines` in one write and fsyncs it; on failure the file is cut back to its size before. */
async function appendNow(openFile: (file: string) => Promise<AppendTarget>, file: string, lines: Buffer[]): Promise<void> {
  const handle = await openFile(file);
  let sizeBefore: number | undefined;
  try {
    sizeBefore = (await handle.stat()).size;
    const bytes = Buffer.concat((await endsTorn(handle, sizeBefore)) ? [NEWLINE, ...lines] : lines);
    const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`);
    await handle.sync();
  } catch (error) {
    if (sizeBefore !== undefined) await handle.truncate(sizeBefore).catch(() => undefined);
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

const NEWLINE = Buffer.from('\n');

/**
 * Whether the file ends in a line without its newline (a write torn by a crash). The next line then starts
 * after a newline of its own: glued to the torn one, it would be unreadable too.
 */
async function endsTorn(handle: AppendTarget, size: number): Promise<boolean> {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  const { bytesRead } = await handle.read(last, 0, 1, size - 1);
  return bytesRead === 1 && last[0] !== 0x0a;
}

export interface JsonLines<T> {
  records: T[];
  /** 1-based numbers of lines that were not valid JSON (a torn last line after a crash, say). */
  badLines: number[];
}

/** Reads every line of `file`; a missing file reads as empty; unparsable lines are reported, not thrown. */
export async function readJsonLines<T = unknown>(file: string): Promise<JsonLines<T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], badLines: [] };
    throw error;
  }
  const records: T[] = [];
  const badLines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      badLines.push(index + 1);
    }
  });
  return { records, badLines };
}

/**
 * Cuts a last line that has no newline (a write torn by a power cut) so that the next append starts on a
 * line of its own instead of gluing itself to the broken one. Returns whether anything was cut.
 */
export async function repairTornTail(file: string): Promise<boolean> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (content.length === 0 || content[content.length - 1] === 0x0a) return false;
  const keep = content.lastIndexOf(0x0a) + 1;
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(keep);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}
