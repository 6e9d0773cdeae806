// Files that readers and crashes never see half done: the content goes whole and flushed into a temp file, which
// is then renamed over the file (a replacement: the rate-limit snapshot, the outbox, the queue, campaigns) or
// linked to a name that must not exist yet (a creation: the newsletter secret, an uploaded image).
import { randomBytes } from 'node:crypto';
import { link, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `content` (or its pieces, as they come) to `file` atomically; on failure the temp file is removed and
 * `file` is untouched.
 */
export async function writeFileAtomically(file: string, content: string | Uint8Array | AsyncIterable<string | Uint8Array>): Promise<void> {
  await withFlushedTempFile(path.dirname(file), content, 0o600, (temporary) => rename(temporary, file));
  await syncFolder(path.dirname(file));
}

/**
 * Creates the first of `names` (in order) that does not exist in `folder` with `content`, never replacing a file:
 * the temp file is linked, and a link fails where a name is taken. The name it got, or undefined when all are taken.
 */
export async function createFileExclusively(folder: string, names: Iterable<string>, content: string | Uint8Array, mode: number): Promise<string | undefined> {
  const created = await withFlushedTempFile(folder, content, mode, async (temporary) => {
    for (const name of names) {
      try {
        await link(temporary, path.join(folder, name));
        return name;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return undefined;
  });
  if (created !== undefined) await syncFolder(folder);
  return created;
}

/** Writes `content` whole and fsynced to a new temp file in `folder`, hands it to `place`, and removes what is left of it. */
async function withFlushedTempFile<T>(folder: string, content: string | Uint8Array | AsyncIterable<string | Uint8Array>, mode: number, place: (temporary: string) => Promise<T>): Promise<T> {
  const temporary = path.join(folder, `.postbox-${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      if (typeof content === 'string' || content instanceof Uint8Array) await handle.writeFile(content);
      // Each writeFile on a handle goes on from where the last one ended.
      else for await (const piece of content) await handle.writeFile(piece);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return await place(temporary);
  } finally {
    // After a rename there is nothing left; after a link, or a failure, the temp name goes.
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** Makes a rename durable; where a folder cannot be fsynced (some file systems) this is skipped. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}
