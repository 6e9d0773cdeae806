// Reads an image beside a post from content_dir (the file-system side of docs/blog.md "Images beside a
// post"). Only regular files (no symbolic links, no folders) whose first bytes are a known image are read whole.
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { detectImageType, IMAGE_HEAD_BYTES } from '../../image-type.js';

export interface MediaImage {
  body: Buffer;
  contentType: string;
}

/** `name` in `folder` (relative to content_dir), or null when it is missing or not an image. */
export type MediaReader = (folder: string, name: string) => Promise<MediaImage | null>;

export function createMediaReader(contentDir: string): MediaReader {
  return async (folder, name) => {
    const file = path.join(contentDir, folder, name);
    try {
      if (!(await lstat(file)).isFile()) return null;
      const handle = await open(file, 'r');
      try {
        const head = Buffer.alloc(IMAGE_HEAD_BYTES);
        const { bytesRead } = await handle.read(head, 0, head.length, 0);
        const contentType = detectImageType(head.subarray(0, bytesRead))?.mediaType ?? null;
        if (contentType === null) return null;
        const { size } = await handle.stat();
        const body = Buffer.alloc(size);
        let filled = 0;
        while (filled < size) {
          const { bytesRead: read } = await handle.read(body, filled, size - filled, filled);
          if (read === 0) break;
          filled += read;
        }
        return { body: body.subarray(0, filled), contentType };
      } finally {
        await handle.close();
      }
    } catch {
      return null; // gone, unreadable or not a file: as if it were not there
    }
  };
}
