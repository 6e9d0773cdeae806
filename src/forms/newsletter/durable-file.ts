// File helpers for the newsletter's durable state: reading it at start, an atomic rewrite, and the repair of a
// torn last line.
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { readJsonLines, type JsonLines } from '../../storage/jsonl.js';

/** Replaces `file` with `text` all at once (temp file, fsync, rename, fsync of the folder). */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(path.dirname(file));
}

/** Makes a rename durable; some systems cannot fsync a folder, which is harmless to skip. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // EINVAL/EISDIR on systems without folder fsync: the rename itself still happened.
  } finally {
    await handle.close();
  }
}

/** Reads JSONL state at start; anything but a missing file is fatal, with a message naming the file. */
export async function readStateLines<T>(file: string, what: string): Promise<JsonLines<T>> {
  try {
    return await readJsonLines<T>(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(`cannot read the ${what} ${file} (${code}); fix or move it, then start again`, { cause: error });
  }
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
