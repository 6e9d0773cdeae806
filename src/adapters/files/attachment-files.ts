// Attachments in data_dir/attachments/ (docs/attachments.md "Storage"): each file streamed to `<id>.part`, renamed
// to `<id>` once whole, so a file cut off midway is never read; held submissions as `held/<id>.json`.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AttachmentStore, HeldSubmissions } from '../../forms/attachments/attachment-store.js';

const ID = /^[A-Za-z0-9_-]{16,64}$/;

export function createAttachmentFiles(dataDir: string): AttachmentStore & { held: HeldSubmissions } {
  const folder = join(dataDir, 'attachments');
  const heldFolder = join(folder, 'held');
  const pathOf = (id: string): string => {
    if (!ID.test(id)) throw new Error('not an attachment id');
    return join(folder, id);
  };
  return {
    async write(id, content) {
      const path = pathOf(id);
      await mkdir(folder, { recursive: true });
      try {
        await pipeline(content, createWriteStream(`${path}.part`, { flags: 'wx' }));
        await rename(`${path}.part`, path);
      } catch (error) {
        await rm(`${path}.part`, { force: true });
        throw error;
      }
    },
    async read(id) {
      if (!ID.test(id)) return undefined;
      const stream = createReadStream(pathOf(id));
      return new Promise((resolve) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', () => resolve(undefined));
      });
    },
    async remove(id) {
      await rm(pathOf(id), { force: true });
    },
    async prune(before) {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        if (!ID.test(name)) continue;
        const stats = await stat(join(folder, name)).catch(() => undefined);
        if (stats && stats.mtimeMs < before) {
          await rm(join(folder, name), { force: true });
          removed += 1;
        }
      }
      return removed;
    },
    held: {
      async hold(id, record) {
        await mkdir(heldFolder, { recursive: true });
        await writeFile(join(heldFolder, `${pathOf(id).slice(folder.length + 1)}.json`), JSON.stringify(record));
      },
      async list() {
        const names = await readdir(heldFolder).catch(() => [] as string[]);
        const records = [];
        for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
          const text = await readFile(join(heldFolder, name), 'utf8').catch(() => undefined);
          if (text !== undefined) records.push({ id: name.slice(0, -'.json'.length), record: JSON.parse(text) as unknown });
        }
        return records;
      },
      async release(id) {
        await rm(join(heldFolder, `${pathOf(id).slice(folder.length + 1)}.json`), { force: true });
      },
    },
  };
}
