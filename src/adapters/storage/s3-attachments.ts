// Attachments in an S3-compatible bucket (docs/attachments.md "S3 storage"): each file is spooled to
// data_dir/attachments/spool/ as it arrives, then sent with its Content-Length and removed locally, so a 10 MB
// upload is never held in memory and nothing half-received reaches the bucket. Held submissions stay on the
// replica that took them, in data_dir/attachments/held/, like the files store's.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AttachmentStore, HeldSubmissions } from '../../forms/attachments/attachment-store.js';
import { createAttachmentFiles } from '../files/attachment-files.js';
import type { S3Client } from './s3-client.js';

const ID = /^[A-Za-z0-9_-]{16,64}$/;

/** `listPageSize` is how many keys keep_days' prune lists a request (tests make it small to page). */
export function createS3Attachments(client: S3Client, prefix: string, dataDir: string, listPageSize = 1000): AttachmentStore & { held: HeldSubmissions } {
  const spool = join(dataDir, 'attachments', 'spool');
  const keyOf = (id: string): string => {
    if (!ID.test(id)) throw new Error('not an attachment id');
    return `${prefix}${id}`;
  };
  return {
    async write(id, content) {
      const key = keyOf(id);
      const path = join(spool, `${id}.part`);
      await mkdir(spool, { recursive: true });
      try {
        await pipeline(content, createWriteStream(path, { flags: 'wx' }));
        const { size } = await stat(path);
        await client.put(key, createReadStream(path), size);
      } finally {
        await rm(path, { force: true });
      }
    },
    async read(id) {
      if (!ID.test(id)) return undefined;
      return client.get(keyOf(id));
    },
    async remove(id) {
      await client.delete(keyOf(id));
    },
    async prune(before) {
      // A spooled file older than that was left by a process stopped mid-upload.
      for (const name of await readdir(spool).catch(() => [] as string[])) {
        const stats = await stat(join(spool, name)).catch(() => undefined);
        if (stats && stats.mtimeMs < before) await rm(join(spool, name), { force: true });
      }
      let removed = 0;
      for await (const object of client.list(prefix, listPageSize)) {
        const id = object.key.slice(prefix.length);
        if (!ID.test(id) || !(object.lastModified < before)) continue;
        await client.delete(object.key);
        removed += 1;
      }
      return removed;
    },
    held: createAttachmentFiles(dataDir).held,
  };
}
