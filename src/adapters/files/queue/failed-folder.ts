// The queue's failed/ folder: one file per message that was given up, with its last error, kept for
// `postbox queue list|retry|drop` and /admin's failed mail. It also keeps the failed count a claiming store
// answers `counts` from: read at its load and rescans, moved by its own changes.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { readJson, type FailedFile, type QueueDisk, type QueueLayout } from './layout.js';

export interface FailedFolder {
  /** Every failed message, oldest failure first. */
  list(): Promise<FailedFile[]>;
  /** The failed message `id`, or undefined: the file name is the id made safe, so the file's own id is checked. */
  read(id: string): Promise<FailedFile | undefined>;
  /** The files now: what other processes did counts at once. */
  countFiles(): Promise<number>;
  /** The count as last read or changed here; 0 before the first `recount`. */
  count(): number;
  /** Reads the count from the folder. */
  recount(): Promise<void>;
  /** Keeps `record` durably and counts it. */
  add(record: FailedFile): Promise<void>;
  /** Removes the file of `id`; the count is read again once there is one. */
  remove(id: string): Promise<void>;
}

export function createFailedFolder(layout: QueueLayout, disk: QueueDisk): FailedFolder {
  let failedCount = 0;
  let counted = false;
  /**
   * Changes to failed/ by this store and its counts run one at a time: a count read while a message is being
   * moved there would otherwise be overwritten by (or overwrite) that move's own count.
   */
  let chain: Promise<unknown> = Promise.resolve();
  function serially<T>(task: () => Promise<T>): Promise<T> {
    const next = chain.then(task, task);
    chain = next.catch(() => undefined);
    return next;
  }
  const fileNames = async () => (await readdir(layout.failedDir).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  const countFiles = async () => (await fileNames()).length;

  return {
    async list() {
      const files: FailedFile[] = [];
      for (const name of await fileNames()) {
        const parsed = await readJson<FailedFile>(path.join(layout.failedDir, name));
        if (parsed) files.push(parsed);
      }
      return files.sort((first, second) => first.failed_at - second.failed_at);
    },
    async read(id) {
      const file = await readJson<FailedFile>(layout.failedFile(id));
      return file?.id === id ? file : undefined;
    },
    countFiles,
    count: () => failedCount,
    recount: () =>
      serially(async () => {
        failedCount = await countFiles();
        counted = true;
      }),
    add: (record) =>
      serially(async () => {
        await disk.writeDurably(layout.failedFile(record.id), JSON.stringify(record));
        failedCount += 1;
      }),
    remove: (id) =>
      serially(async () => {
        await rm(layout.failedFile(id), { force: true });
        if (counted) failedCount = await countFiles();
      }),
  };
}
