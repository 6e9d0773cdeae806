// Where images uploaded in /admin live when `[blog] media_storage = "s3"` (docs/blog.md "Media in storage"): one
// object per image, named by the post's folder and the file name, shared by every replica. The composition makes
// the store (src/adapters/storage/s3-media.ts); the blog and /admin only see this interface.
import type { Readable } from 'node:stream';

export interface StoredMedia {
  body: Readable;
  /** The stored object's own validator: the same value while the bytes are the same. */
  etag: string;
}

export interface MediaStore {
  /** Stores `bytes` bytes from `content` as `<folder>/<name>` (an existing one is replaced: callers pick free names). */
  write(folder: string, name: string, content: Readable, bytes: number): Promise<void>;
  /** `<folder>/<name>`, or undefined when there is none. */
  read(folder: string, name: string): Promise<StoredMedia | undefined>;
  /** The names and sizes in `folder`, sorted by name. */
  list(folder: string): Promise<Array<{ name: string; bytes: number }>>;
  remove(folder: string, name: string): Promise<void>;
}
