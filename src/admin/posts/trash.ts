// "Delete" moves a version to data_dir/trash/, restorable by hand (docs/admin.md "Posts"): nothing is ever
// deleted. The trash name is `<UTC time>-<relative path, "/" written "__">`, e.g. `2024-05-01T12-00-00-000Z-hello__index.fr.md`.
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parsePostFileName } from '../../blog/content/file-name.js';
import { findPost, type PathRefusal, type PostFilesContext } from './context.js';
import { versionToken } from './version-token.js';

/** data_dir/trash: where deleted posts go (config/data-files.ts reserves the name). */
export const TRASH_FOLDER = 'trash';

export type RemoveOutcome =
  | { ok: true; kind: 'trashed'; file: string; trashedAs: string; movedFolder: boolean }
  | { ok: false; kind: 'conflict'; theirsVersion: string }
  | PathRefusal;

/**
 * Moves `file` to the trash; the last version of a folder post takes its folder (and its images) along. With
 * `version`, a file changed since it was opened is left where it is.
 */
export async function removeVersion(context: PostFilesContext, file: string, version?: string): Promise<RemoveOutcome> {
  const found = await findPost(context, file);
  if (!found.ok) return found;
  const { path: postPath, bytes } = found.post;
  const current = versionToken(bytes);
  if (version !== undefined && version !== current) return { ok: false, kind: 'conflict', theirsVersion: current };

  const folder = postPath.relative.includes('/') ? postPath.relative.split('/')[0]! : null;
  const lastInFolder = folder !== null && (await otherVersions(context, folder, postPath.relative)) === 0;
  const moved = lastInFolder ? folder : postPath.relative;
  const source = path.join(context.contentDir, ...moved.split('/'));
  await mkdir(context.trashDir, { recursive: true });
  const target = await freeName(context.trashDir, `${trashStamp(context.clock())}-${moved.replaceAll('/', '__')}`);
  await moveAcrossDevices(source, target);
  return { ok: true, kind: 'trashed', file: postPath.relative, trashedAs: path.basename(target), movedFolder: lastInFolder };
}

/** `2024-05-01T12-00-00-000Z`: sorts by time and is a valid file name everywhere. */
export function trashStamp(now: number): string {
  return new Date(now).toISOString().replace(/[:.]/g, '-');
}

async function otherVersions(context: PostFilesContext, folder: string, except: string): Promise<number> {
  const entries = await readdir(path.join(context.contentDir, folder));
  return entries.filter((entry) => `${folder}/${entry}` !== except && parsePostFileName(`${folder}/${entry}`, context.languageNames) !== null).length;
}

/** `name`, or `name-2`, `name-3`... when the trash already holds one (two deletes in one millisecond). */
export async function freeName(folder: string, name: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const candidate = path.join(folder, attempt === 1 ? name : `${name}-${attempt}`);
    if (!(await stat(candidate).then(() => true, () => false))) return candidate;
  }
}

/** A rename; where data_dir is on another device than content_dir, a copy then a removal. */
export async function moveAcrossDevices(source: string, target: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(source, target, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    await rm(source, { recursive: true });
  }
}
