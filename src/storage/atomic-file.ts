// Whole-file replacement that readers and crashes never see half done: temp file, fsync, rename, fsync of
// the folder. Used for the rate-limit snapshot and the .eml files of the mail outbox.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Writes `content` to `file` atomically; on failure the temp file is removed and `file` is untouched. */
export async function writeFileAtomically(file: string, content: string | Uint8Array): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(path.dirname(file));
}

/** Makes a rename durable; where a folder cannot be fsynced (some file systems) this is skipped. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}
