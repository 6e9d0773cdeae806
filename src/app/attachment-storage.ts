// Where form attachments are kept (docs/attachments.md "Storage"): data_dir/attachments/ or an S3-compatible bucket,
// as `[storage] kind` says. The forms service and /admin's inbox work through the same store.
import { createAttachmentFiles } from '../adapters/files/attachment-files.js';
import { createS3Attachments } from '../adapters/storage/s3-attachments.js';
import { createS3Client, type S3Client } from '../adapters/storage/s3-client.js';
import type { Config } from '../config/config.js';
import type { AttachmentStore, HeldSubmissions } from '../forms/attachments/attachment-store.js';
import type { QuarantinedSubmission, SpamStore } from '../forms/spam/quarantine.js';

/** Whether a form of `config` takes files. */
export const takesAttachments = (config: Config): boolean => config.forms.some((form) => form.type !== 'newsletter' && form.attachments !== undefined);

export function createAttachmentStoreOf(config: Config): AttachmentStore & { held: HeldSubmissions } {
  if (config.storage.kind !== 's3') return createAttachmentFiles(config.data_dir);
  return createS3Attachments(createS3ClientOf(config), config.storage.prefix, config.data_dir);
}

/** The client of `[storage]`'s bucket (kind = "s3"), which attachments and blog media share. */
export function createS3ClientOf(config: Config): S3Client {
  const storage = config.storage;
  // The schema requires these keys with kind = "s3".
  return createS3Client({
    endpoint: storage.endpoint!,
    bucket: storage.bucket!,
    region: storage.region,
    accessKeyId: storage.access_key_id!,
    secretAccessKey: storage.secret_access_key!,
    pathStyle: storage.path_style,
  });
}

type Discarding = Pick<SpamStore, 'list' | 'count' | 'discard'>;

/**
 * The quarantine as /admin's Spam view deletes from it (docs/attachments.md "Virus scan"): the files a deleted
 * submission kept go with it. Entries still there after the discard (being released right now) keep theirs.
 */
export function withFilesDiscarded(store: Discarding, files: Pick<AttachmentStore, 'remove'>): Discarding {
  const entriesOf = async (form: string, which: { id: string } | { upTo: string }): Promise<QuarantinedSubmission[]> => {
    const found: QuarantinedSubmission[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await store.list(form, { limit: 500, before });
      for (const entry of page) if ('id' in which ? entry.id === which.id : entry.id <= which.upTo) found.push(entry);
      if (page.length === 0 || ('id' in which && found.length > 0)) return found;
      before = page[page.length - 1]!.id;
    }
  };
  return {
    list: (form, options) => store.list(form, options),
    count: (form) => store.count(form),
    async discard(form, which, now, staleAfterMs) {
      const candidates = (await entriesOf(form, which)).filter((entry) => (entry.submission.attachments ?? []).length > 0);
      const count = await store.discard(form, which, now, staleAfterMs);
      if (candidates.length > 0) {
        const kept = new Set((await entriesOf(form, which)).map((entry) => entry.id));
        for (const entry of candidates.filter((candidate) => !kept.has(candidate.id))) {
          for (const file of entry.submission.attachments ?? []) if (!file.removed) await files.remove(file.id).catch(() => {});
        }
      }
      return count;
    },
  };
}
