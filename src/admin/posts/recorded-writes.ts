// Each write of the post files recorded as one change (post-changes.ts; docs/admin.md "Posts in git"): what the
// write touched, named by what was done. When the change log answers `superseded` (another change to the same
// lines was recorded first elsewhere, and content_dir now holds it), the write's outcome says so in the terms its
// page already knows: a save is the 409 conflict with the person's text as "mine", a new file "exists", a delete
// a conflict. Nothing typed is lost: the conflict page keeps it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PostFilesContext } from './context.js';
import type { CreateOutcome } from './create-post.js';
import type { SaveOutcome } from './edit-post.js';
import type { ChangeAction, PostChange, PostChangeLog } from './post-changes.js';
import type { DeleteImageOutcome } from './post-images.js';
import type { StoreImageOutcome } from './store-image.js';
import type { RemoveOutcome } from './trash.js';
import { versionToken } from './version-token.js';

/** The change log and whom its changes are by. */
export interface Recorder {
  log: PostChangeLog;
  author?: string;
}

/** The text of `file` in content_dir now, or null when there is none. */
async function textOf(context: PostFilesContext, file: string): Promise<string | null> {
  return readFile(path.join(context.contentDir, ...file.split('/')), 'utf8').catch(() => null);
}

async function record(recorder: Recorder, change: Omit<PostChange, 'author'>): Promise<boolean> {
  const outcome = await recorder.log.record({ ...change, ...(recorder.author === undefined ? {} : { author: recorder.author }) });
  return outcome.ok;
}

/** A save (an edit, a publish, an unpublish, a restore) that wrote its file. */
export async function recordSave(context: PostFilesContext, recorder: Recorder, outcome: SaveOutcome, action: ChangeAction, restored?: string): Promise<SaveOutcome> {
  if (!outcome.ok || !outcome.changed) return outcome;
  const mine = (await textOf(context, outcome.file)) ?? '';
  const kept = await record(recorder, { action, subject: outcome.file, paths: [outcome.file], ...(restored === undefined ? {} : { restored }) });
  const now = await textOf(context, outcome.file);
  if (kept) {
    // Recording may have taken in others' changes to other lines: the version is that of the file now.
    return now === null || now === mine ? outcome : { ...outcome, version: versionToken(now) };
  }
  if (now === null) return { ok: false, kind: 'not_found' };
  return { ok: false, kind: 'conflict', mine, theirs: now, theirsVersion: versionToken(now), merged: null };
}

/** A new post or a new translation. */
export async function recordCreate(recorder: Recorder, outcome: CreateOutcome, action: 'create' | 'translate'): Promise<CreateOutcome> {
  if (!outcome.ok) return outcome;
  return (await record(recorder, { action, subject: outcome.file, paths: [outcome.file] })) ? outcome : { ok: false, kind: 'exists', file: outcome.file };
}

/** A version (or the post's folder with its last version) moved to the trash. */
export async function recordRemove(context: PostFilesContext, recorder: Recorder, outcome: RemoveOutcome): Promise<RemoveOutcome> {
  if (!outcome.ok) return outcome;
  const moved = outcome.movedFolder ? outcome.file.split('/')[0]! : outcome.file;
  if (await record(recorder, { action: 'delete', subject: outcome.file, paths: [moved] })) return outcome;
  const now = await textOf(context, outcome.file);
  return { ok: false, kind: 'conflict', theirsVersion: now === null ? '' : versionToken(now) };
}

/** An image stored beside a post, with the moves into the post's folder it took. */
export async function recordStoreImage(recorder: Recorder, outcome: StoreImageOutcome): Promise<StoreImageOutcome> {
  if (!outcome.ok) return outcome;
  const folder = outcome.postFile.split('/')[0]!;
  const image = `${folder}/${outcome.fileName}`;
  const paths = [...outcome.moved.flatMap((move) => [move.from, move.to]), image];
  return (await record(recorder, { action: 'upload_image', subject: image, paths })) ? outcome : { ok: false, kind: 'folder_taken', folder };
}

/** An image beside the post `file` moved to the trash. */
export async function recordDeleteImage(recorder: Recorder, file: string, outcome: DeleteImageOutcome): Promise<DeleteImageOutcome> {
  if (!outcome.ok) return outcome;
  const image = `${file.split('/')[0]!}/${outcome.name}`;
  return (await record(recorder, { action: 'delete_image', subject: image, paths: [image] })) ? outcome : { ok: false, kind: 'no_image' };
}
