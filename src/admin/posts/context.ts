// What every post-file operation shares: the folders, the clock, the language lookup, and the blog's own parse
// as the last check before a write (a saved file must be one the blog serves).
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../ports.js';
import { checkPostPath, isInsideContentDir, type PostPath } from './post-path.js';

export interface PostFilesContext {
  contentDir: string;
  trashDir: string;
  clock: Clock;
  languageNames: Intl.DisplayNames;
  /** Why the blog would skip `text` as the file `file`, or null when it would serve it. */
  blogProblem(file: string, text: string): string | null;
}

/** An outcome that names no file: the path was refused, or there is no such post file. */
export type PathRefusal = { ok: false; kind: 'refused'; reason: string } | { ok: false; kind: 'not_found' };

interface FoundPost {
  path: PostPath;
  text: string;
  bytes: Buffer;
}

/** Reads the post file `file` names, after checking the name and that it stays inside content_dir. */
export async function findPost(context: PostFilesContext, file: string): Promise<{ ok: true; post: FoundPost } | PathRefusal> {
  const checked = checkPostPath(context.contentDir, file, context.languageNames);
  if (!checked.ok) return { ok: false, kind: 'refused', reason: checked.reason };
  let bytes: Buffer;
  try {
    bytes = await readFile(checked.path.absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return { ok: false, kind: 'not_found' };
    throw error;
  }
  if (!(await isInsideContentDir(context.contentDir, checked.path.absolute, true))) {
    return { ok: false, kind: 'refused', reason: 'not a path inside content_dir' };
  }
  return { ok: true, post: { path: checked.path, text: bytes.toString('utf8'), bytes } };
}
