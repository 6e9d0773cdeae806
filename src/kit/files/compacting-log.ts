// An append-only JSONL log whose owner keeps its state in memory, and rewrites it from that state now and then
// (compaction: write a temp file, fsync, rename; atomic-file.ts). Appends and rewrites share one group commit
// (group-commit.ts), so they run one at a time and in the order they were asked for: a rewrite writes the owner's
// state as it is when the rewrite runs, which holds every change whose line was asked for before, and the lines of
// its batch are then already in it. A change is thus never lost to a rewrite, nor written twice.
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from './atomic-file.js';
import { createGroupCommit } from './group-commit.js';

export interface CompactingLog<T> {
  /** Appends `record` as one line; resolves once it is written (and fsynced when the log is durable). */
  append(record: T): Promise<void>;
  /** Replaces the file with the records `snapshot` gives when the rewrite runs. */
  rewrite(): Promise<void>;
}

export interface CompactingLogOptions<T> {
  /** Whether each write is fsynced before it resolves (a rewrite always is). */
  durable: boolean;
  /** The records that make the owner's state now, for a rewrite. */
  snapshot(): Iterable<T>;
}

type Item<T> = { record: T } | { rewrite: true };

export function createCompactingLog<T>(file: string, options: CompactingLogOptions<T>): CompactingLog<T> {
  const commit = createGroupCommit<Item<T>>(async (batch) => {
    await mkdir(path.dirname(file), { recursive: true });
    if (batch.some((item) => 'rewrite' in item)) {
      await writeFileAtomically(file, linesOf(options.snapshot()));
      return;
    }
    await appendLines(file, linesOf(batch.map((item) => (item as { record: T }).record)), options.durable);
  });
  return {
    append: (record) => commit({ record }),
    rewrite: () => commit({ rewrite: true }),
  };
}

function linesOf<T>(records: Iterable<T>): string {
  let text = '';
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return text;
}

/** Appends `text` in one write; on failure the file is cut back to its size before, so no half line is left. */
async function appendLines(file: string, text: string, durable: boolean): Promise<void> {
  const handle = await open(file, 'a', 0o600);
  let sizeBefore: number | undefined;
  try {
    sizeBefore = (await handle.stat()).size;
    const bytes = Buffer.from(text, 'utf8');
    const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
    if (bytesWritten !== bytes.length) throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`);
    if (durable) await handle.sync();
  } catch (error) {
    if (sizeBefore !== undefined) await handle.truncate(sizeBefore).catch(() => undefined);
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
