// Reads an image beside a post from the media store (docs/blog.md "Media in storage"): the same rule as in
// content_dir (media-files.ts), only images recognised by their first bytes, so any replica serves any upload with
// the headers it would give a file on its own disk. An image is read whole, as from content_dir, up to `maxBytes`,
// and kept while the store's validator for it is unchanged.
import { detectImageType, IMAGE_HEAD_BYTES } from '../../kit/image-type.js';
import { createLru } from '../http/lru.js';
import type { MediaImage, MediaReader } from './media-files.js';
import type { MediaStore } from './media-store.js';

const CACHED_IMAGES = 64;

export function createStoredMediaReader(store: MediaStore, maxBytes: number): MediaReader {
  const cache = createLru<string, { etag: string; image: MediaImage }>(CACHED_IMAGES);
  return async (folder, name) => {
    const stored = await store.read(folder, name);
    if (!stored) return null;
    const key = `${folder}/${name}`;
    const cached = cache.get(key);
    // The same object as last time: the same answer (its ETag and compressed forms are not made again).
    if (cached && stored.etag !== '' && cached.etag === stored.etag) {
      stored.body.destroy();
      return cached.image;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of stored.body as AsyncIterable<Buffer>) {
      length += chunk.length;
      // Larger than any upload: not something /admin put there.
      if (length > maxBytes) {
        stored.body.destroy();
        return null;
      }
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    const contentType = detectImageType(body.subarray(0, IMAGE_HEAD_BYTES))?.mediaType;
    if (contentType === undefined) return null;
    const image = { body, contentType };
    if (stored.etag !== '') cache.set(key, { etag: stored.etag, image });
    return image;
  };
}
