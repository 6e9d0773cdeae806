// Unsaved editor drafts in data_dir/admin-drafts/ (src/admin/drafts/draft-store.ts): one JSON file per person and
// key, named by the SHA-256 of both (so no name or path typed by anyone becomes a file name), written atomically.
// The record repeats the user and the key: a file is only ever answered for the pair it was written for.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { unsavedDraftOf, type DraftStore } from '../../admin/drafts/draft-store.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

/** The folder's name inside data_dir (reserved in src/config/data-files.ts). */
export const DRAFTS_FOLDER = 'admin-drafts';

export function draftsDirOf(dataDir: string): string {
  return path.join(dataDir, DRAFTS_FOLDER);
}

export function createDraftFiles(folder: string): DraftStore {
  const fileOf = (user: string, key: string) => path.join(folder, `${createHash('sha256').update(`${user}\u0000${key}`).digest('hex')}.json`);
  return {
    async put(user, key, draft) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await writeFileAtomically(fileOf(user, key), `${JSON.stringify({ user, key, fields: draft.fields, body: draft.body, savedAt: draft.savedAt })}\n`);
    },
    async get(user, key) {
      let text: string;
      try {
        text = await readFile(fileOf(user, key), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        return undefined;
      }
      const { user: owner, key: recordKey } = (record ?? {}) as Record<string, unknown>;
      return owner === user && recordKey === key ? unsavedDraftOf(record) : undefined;
    },
    async remove(user, key) {
      await rm(fileOf(user, key), { force: true });
    },
  };
}
