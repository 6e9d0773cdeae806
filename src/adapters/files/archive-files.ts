// A form's archive (data_dir/<archive>, one JSON line per accepted submission) as the inbox reads and edits it
// (docs/admin.md "Inbox"): pages newest first read from the end of the file, submissions per day, and the
// removal of one line by rewriting the file atomically, while the appender of the forms service waits (the
// `exclusive` of src/kit/files/jsonl.ts), so that a submission arriving at that moment is neither lost nor doubled.
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { dayCountsOf, type ArchivePage } from '../../admin/inbox/archive-reader.js';
import { entryMatches, lineDigest, parseEntry, parseEntryId, type InboxEntry } from '../../admin/inbox/inbox-entry.js';
import { syncFolder } from '../../kit/files/atomic-file.js';
import type { FileExclusive } from '../../kit/files/jsonl.js';
import { readLinesBackward } from '../../kit/files/lines-backward.js';

/**
 * A form's archive: its file and the form's path. Several forms may share one file (docs/configuration.md
 * "archive"), so every reader keeps to the lines of its form.
 */
export interface FormArchive {
  file: string;
  form: string;
}

/** The entry of a line of `archive`'s form, or undefined for another form's line or an unreadable one. */
function entryOf(archive: FormArchive, offset: number, text: string): InboxEntry | undefined {
  const entry = parseEntry(offset, text);
  return entry?.fields.form === archive.form ? entry : undefined;
}

export type { ArchivePage };

/** Page `page` (from 1) of `size` entries matching `terms`, newest first, reading no further back than it needs. */
export async function readArchivePage(archive: FormArchive, options: { page: number; size: number; terms: readonly string[] }): Promise<ArchivePage> {
  const skip = (options.page - 1) * options.size;
  const entries: InboxEntry[] = [];
  let matched = 0;
  for await (const line of readLinesBackward(archive.file)) {
    const entry = entryOf(archive, line.offset, line.text);
    if (!entry || !entryMatches(entry, options.terms)) continue;
    matched += 1;
    if (matched <= skip) continue;
    if (entries.length === options.size) return { entries, hasNext: true };
    entries.push(entry);
  }
  return { entries, hasNext: false };
}

/** The entry with `id`, or undefined when the archive has no such line (any more). */
export async function readArchiveEntry(archive: FormArchive, id: string): Promise<InboxEntry | undefined> {
  const wanted = parseEntryId(id);
  if (!wanted) return undefined;
  // Where the id says first (nothing was removed before it since the page was shown), else wherever it moved.
  const there = await lineAt(archive.file, wanted.offset).catch(() => undefined);
  if (there !== undefined && lineDigest(there) === wanted.digest) return entryOf(archive, wanted.offset, there);
  for await (const line of readLinesBackward(archive.file)) {
    if (lineDigest(line.text) === wanted.digest) return entryOf(archive, line.offset, line.text);
  }
  return undefined;
}

/**
 * Submissions per UTC day for the `days` days up to `now` (oldest first), read from the end until a line is older:
 * an archive is in arrival order, so a long history costs nothing.
 */
export async function countArchiveByDay(archive: FormArchive, days: number, now: number): Promise<Array<{ day: string; count: number }>> {
  const { first, counts } = dayCountsOf(days, now);
  for await (const line of readLinesBackward(archive.file)) {
    const entry = entryOf(archive, line.offset, line.text);
    const time = entry ? Date.parse(entry.received_at) : Number.NaN;
    if (Number.isNaN(time)) continue;
    if (time < first) break;
    const index = Math.floor((time - first) / 86_400_000);
    if (index < days) counts[index]!.count += 1;
  }
  return counts;
}

/** Every entry of the archive, oldest first, one line in memory at a time (the CSV export). */
export async function* readArchiveEntries(archive: FormArchive): AsyncGenerator<InboxEntry> {
  const stream = createReadStream(archive.file, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!opened) return;
  let offset = 0;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      const entry = entryOf(archive, offset, text);
      offset += Buffer.byteLength(text) + 1;
      if (entry) yield entry;
    }
  } finally {
    // An export the client left midway ends this generator early: the file must be closed all the same.
    stream.destroy();
  }
}

/**
 * Removes the line `id` names: the archive is copied without it to a temp file, fsynced and renamed over it,
 * while `exclusive` holds the file's appends back. `missing` when no line has that id (removed already).
 */
export async function removeArchiveLine(archive: FormArchive, id: string, exclusive: FileExclusive): Promise<'removed' | 'missing'> {
  const wanted = parseEntryId(id);
  if (!wanted) return 'missing';
  const { file } = archive;
  return exclusive(file, async () => {
    // Before any temp file is made: a missing archive has no line to remove.
    let atOffset: boolean;
    try {
      atOffset = await hasLineAt(file, wanted.offset, wanted.digest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
    const output = await open(temporary, 'wx', 0o600);
    let removed = false;
    // Two identical lines (the same submission twice in one second): the one at the id's offset goes (atOffset).
    try {
      let offset = 0;
      const input = createReadStream(file);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        await output.write(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      };
      for await (const text of createInterface({ input, crlfDelay: Infinity })) {
        const bytes = Buffer.from(`${text}\n`, 'utf8');
        if (!removed && lineDigest(text) === wanted.digest && (offset === wanted.offset || !atOffset) && entryOf(archive, offset, text)) {
          removed = true;
        } else {
          pending.push(bytes);
          pendingBytes += bytes.length;
          if (pendingBytes >= 256 * 1024) await flush();
        }
        offset += bytes.length;
      }
      await flush();
      await output.sync();
    } finally {
      await output.close();
    }
    if (!removed) {
      await rm(temporary, { force: true });
      return 'missing';
    }
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncFolder(path.dirname(file));
    return 'removed';
  });
}

/** Whether the line starting at `offset` has `digest`. */
async function hasLineAt(file: string, offset: number, digest: string): Promise<boolean> {
  const text = await lineAt(file, offset);
  return text !== undefined && lineDigest(text) === digest;
}

/** The text of the line that starts at `offset`, read up to its newline (undefined past the end, or without one). */
async function lineAt(file: string, offset: number): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let position = offset; ; ) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return undefined;
      const end = chunk.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(chunk.subarray(0, end < 0 ? bytesRead : end));
      if (end >= 0) return Buffer.concat(chunks).toString('utf8');
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
