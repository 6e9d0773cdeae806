// Reads an image beside a post from content_dir (the file-system side of docs/blog.md "Images beside a
// post"). Only regular files (no symbolic links, no folders) in a folder that is inside content_dir once every
// link is resolved, whose first bytes are a known image, are read whole, and kept while the file is unchanged.
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { leadsOutsideContentDirAsync } from '../content/content-root.js';
import { detectImageType, IMAGE_HEAD_BYTES } from '../../kit/image-type.js';
import { createLru } from '../http/lru.js';

export interface MediaImage {
  body: Buffer;
  contentType: string;
}

/** `name` in `folder` (relative to content_dir), or null when it is missing or not an image. */
export type MediaReader = (folder: string, name: string) => Promise<MediaImage | null>;

/** Images kept in memory: a page's handful of pictures, asked again and again, is read once while unchanged. */
const CACHED_IMAGES = 64;

export function createMediaReader(contentDir: string): MediaReader {
  const cache = createLru<string, { stamp: string; image: MediaImage }>(CACHED_IMAGES);
  return async (folder, name) => {
    const file = path.join(contentDir, folder, name);
    try {
      const info = await lstat(file);
      if (!info.isFile()) return null;
      // The file is no link; its folder (named by the catalog) may have become one since the posts were loaded.
      if (await leadsOutsideContentDirAsync(contentDir, path.dirname(file))) return null;
      // Same inode, size and modification time: the same bytes (a replaced file gets a new inode or time).
      const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
      const cached = cache.get(file);
      if (cached?.stamp === stamp) return cached.image;
      const handle = await open(file, 'r');
      try {
        const head = Buffer.alloc(IMAGE_HEAD_BYTES);
        const { bytesRead } = await handle.read(head, 0, head.length, 0);
        const contentType = detectImageType(head.subarray(0, bytesRead))?.mediaType ?? null;
        if (contentType === null) return null;
        const image = { body: await handle.readFile(), contentType };
        cache.set(file, { stamp, image });
        return image;
      } finally {
        await handle.close();
      }
    } catch {
      return null; // gone, unreadable or not a file: as if it were not there
    }
  };
}
