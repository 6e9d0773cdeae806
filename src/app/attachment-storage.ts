// Where form attachments are kept (docs/attachments.md "Storage"): data_dir/attachments/ or an S3-compatible bucket,
// as `[storage] kind` says. The forms service and /admin's inbox work through the same store.
import { createAttachmentFiles } from '../adapters/files/attachment-files.js';
import { createS3Attachments } from '../adapters/storage/s3-attachments.js';
import { createS3Client } from '../adapters/storage/s3-client.js';
import type { Config } from '../config/config.js';
import type { AttachmentStore, HeldSubmissions } from '../forms/attachments/attachment-store.js';

/** Whether a form of `config` takes files. */
export const takesAttachments = (config: Config): boolean => config.forms.some((form) => form.type !== 'newsletter' && form.attachments !== undefined);

export function createAttachmentStoreOf(config: Config): AttachmentStore & { held: HeldSubmissions } {
  const storage = config.storage;
  if (storage.kind !== 's3') return createAttachmentFiles(config.data_dir);
  // The schema requires these keys with kind = "s3".
  const client = createS3Client({
    endpoint: storage.endpoint!,
    bucket: storage.bucket!,
    region: storage.region,
    accessKeyId: storage.access_key_id!,
    secretAccessKey: storage.secret_access_key!,
    pathStyle: storage.path_style,
  });
  return createS3Attachments(client, storage.prefix, config.data_dir);
}
