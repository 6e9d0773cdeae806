// Temporary folders for tests: created under the OS temp dir, removed when the test (or suite) ends.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder `postbox-<prefix>-XXXXXX`; call the returned `remove` (or use `withTempDir`). */
export async function createTempDir(prefix = 'test'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `postbox-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `body` with a fresh folder and removes it afterwards, whatever happens. */
export async function withTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const { dir, remove } = await createTempDir(prefix);
  try {
    return await body(dir);
  } finally {
    await remove();
  }
}
