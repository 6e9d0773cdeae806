// Which post file a request names: a path relative to content_dir that the blog reads as a post file
// (src/blog/content/file-name.ts) and that stays inside content_dir once symbolic links are resolved.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { parsePostFileName, type PostFileName } from '../../blog/content/file-name.js';

export interface PostPath {
  /** `/`-separated, relative to content_dir, as the blog names the file. */
  relative: string;
  /** The slug and language the file name gives. */
  name: PostFileName;
  /** Absolute path in content_dir (not resolved: a rename replaces this name). */
  absolute: string;
}

type PostPathOutcome = { ok: true; path: PostPath } | { ok: false; reason: string };

/** Checks the name alone (no I/O): no absolute path, `..`, `.`, backslash or empty segment; a post file name. */
export function checkPostPath(contentDir: string, relative: string, names: Intl.DisplayNames): PostPathOutcome {
  if (relative === '' || relative.includes('\0') || relative.includes('\\') || path.isAbsolute(relative) || /^[A-Za-z]:/.test(relative)) {
    return { ok: false, reason: 'not a path inside content_dir' };
  }
  const parts = relative.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return { ok: false, reason: 'not a path inside content_dir' };
  const name = parsePostFileName(relative, names);
  if (!name) return { ok: false, reason: 'not a post file name' };
  return { ok: true, path: { relative, name, absolute: path.join(contentDir, ...parts) } };
}

/**
 * Whether `absolute` (an existing file, or a file to create in an existing folder) lies inside content_dir
 * after resolving symbolic links: a link in content_dir that points elsewhere is not followed for writing.
 */
export async function isInsideContentDir(contentDir: string, absolute: string, exists: boolean): Promise<boolean> {
  try {
    const root = await realpath(contentDir);
    const real = exists ? await realpath(absolute) : path.join(await realpath(path.dirname(absolute)), path.basename(absolute));
    return real.startsWith(root + path.sep);
  } catch {
    return false;
  }
}
