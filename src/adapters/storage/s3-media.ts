// Blog media in an S3-compatible bucket (docs/blog.md "Media in storage"): the image `<folder>/<name>` is the object
// `media/<folder>/<name>`, whatever `[storage] prefix` the attachments use, so the attachments' sweep never lists it.
import type { MediaStore } from '../../blog/media/media-store.js';
import type { S3Client } from './s3-client.js';

export const MEDIA_KEY_PREFIX = 'media/';

/** A folder or file name as one key segment: no separator, no dot segment, nothing hidden. */
const SEGMENT = /^[^./\\\p{Cc}][^/\\\p{Cc}]*$/u;

export function createS3Media(client: S3Client): MediaStore {
  const folderKey = (folder: string): string => {
    if (!SEGMENT.test(folder)) throw new Error('not a media folder');
    return `${MEDIA_KEY_PREFIX}${folder}/`;
  };
  const keyOf = (folder: string, name: string): string => {
    if (!SEGMENT.test(name)) throw new Error('not a media name');
    return `${folderKey(folder)}${name}`;
  };
  return {
    async write(folder, name, content, bytes) {
      await client.put(keyOf(folder, name), content, bytes);
    },
    async read(folder, name) {
      if (!SEGMENT.test(folder) || !SEGMENT.test(name)) return undefined;
      const response = await client.get(keyOf(folder, name));
      if (!response) return undefined;
      return { body: response, etag: String(response.headers.etag ?? '') };
    },
    async list(folder) {
      const prefix = folderKey(folder);
      const found: Array<{ name: string; bytes: number }> = [];
      for await (const object of client.list(prefix)) {
        const name = object.key.slice(prefix.length);
        if (SEGMENT.test(name)) found.push({ name, bytes: object.bytes });
      }
      return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async remove(folder, name) {
      await client.delete(keyOf(folder, name));
    },
  };
}
