// Where blog media uploaded in /admin go (docs/blog.md "Media in storage"): beside their post in content_dir, or
// with `[blog] media_storage = "s3"` in [storage]'s bucket, read by the blog's media route on every replica.
import { createS3Media } from '../adapters/storage/s3-media.js';
import type { MediaStore } from '../blog/media/media-store.js';
import { createStoredMediaReader } from '../blog/media/stored-media.js';
import type { MediaReader } from '../blog/media/media-files.js';
import type { Config } from '../config/config.js';
import { createS3ClientOf } from './attachment-storage.js';

/** The largest image the media route reads from the bucket without [admin] (its default max_upload_bytes). */
const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The bucket's media, or undefined when images stay in content_dir. */
export function createMediaStoreOf(config: Config): MediaStore | undefined {
  if (config.blog?.media_storage !== 's3' || config.storage.kind !== 's3') return undefined;
  return createS3Media(createS3ClientOf(config));
}

/** The blog's media reader over `store`, reading at most what /admin accepts as an upload. */
export function createStoredMediaReaderOf(config: Config, store: MediaStore): MediaReader {
  return createStoredMediaReader(store, Math.max(config.admin?.max_upload_bytes ?? 0, DEFAULT_MAX_IMAGE_BYTES));
}
