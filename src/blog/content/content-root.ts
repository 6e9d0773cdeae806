// Whether a path below content_dir really is inside it once every symbolic link is resolved (docs/blog.md "Where
// posts live"): a post or an image reached through a link that leads out of content_dir (to /etc, to another
// folder of the machine) is never read, whatever its name. Links that stay inside keep working.
import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** Whether `real` is `root` or below it; both are real paths. */
function isWithin(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

/**
 * Whether `target` (a path below `contentDir`) resolves to a place outside `contentDir` (itself resolved: a
 * content_dir that is a link is fine). False when `target` cannot be resolved (a dangling link, a removed file):
 * reading it fails then on its own, and says why.
 */
export function leadsOutsideContentDir(contentDir: string, target: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(target);
  } catch {
    return false;
  }
  try {
    return !isWithin(realpathSync.native(contentDir), real);
  } catch {
    return true;
  }
}

/** {@link leadsOutsideContentDir} through the thread pool, for a request's own read (an image). */
export async function leadsOutsideContentDirAsync(contentDir: string, target: string): Promise<boolean> {
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    return false;
  }
  try {
    return !isWithin(await realpath(contentDir), real);
  } catch {
    return true;
  }
}

/**
 * content_dir from a post's path and its `file` relative to content_dir (`<name>.md` or `<folder>/<name>.md`): the
 * library makes every post path as path.join(content_dir, file), so a post holds no copy of the folder's name.
 */
export function contentDirOf(filePath: string, file: string): string {
  return filePath.slice(0, filePath.length - file.length - 1);
}

/** The reason a post file reached through a link out of content_dir is skipped with (its post_skipped line). */
export const OUTSIDE_LINK_REASON = 'a symbolic link to a file outside content_dir';
