// What every post-file operation shares: the folders, the clock, the language lookup, and the blog's own parse
// as the last check before a write (a saved file must be one the blog serves).
import { readFile } from 'node:fs/promises';
import type { MediaStore } from '../../blog/media/media-store.js';
import type { Clock } from '../../ports.js';
import { ownershipOf, type PostAccess } from './post-access.js';
import { withoutRawHtml } from './raw-html.js';
import { checkPostPath, isInsideContentDir, type PostPath } from './post-path.js';

export interface PostFilesContext {
  contentDir: string;
  trashDir: string;
  clock: Clock;
  languageNames: Intl.DisplayNames;
  /** site.language: the language of a post whose file name and front matter name none. */
  defaultLanguage: string;
  /** Why the blog would skip `text` as the file `file`, or null when it would serve it. */
  blogProblem(file: string, text: string): string | null;
  /**
   * Whom the operations act for (post-access.ts): a post it refuses is `forbidden`, judged on the file on disk
   * when it is read, and so is a write whose result it refuses. Absent: every post.
   */
  access?: PostAccess;
  /** False: every text written loses its `raw_html` mark (raw-html.ts). Absent: written as it is. */
  rawHtml?: boolean;
  /** Where uploaded images go instead of the post's folder (docs/blog.md "Media in storage"). */
  media?: MediaStore;
}

/** An outcome that names no file: the path was refused, there is no such post file, or it is not the person's. */
export type PathRefusal = { ok: false; kind: 'refused'; reason: string } | { ok: false; kind: 'not_found' } | Forbidden;

/** The post (or the result of the write) is not one the person acting may change: nothing was written. */
export type Forbidden = { ok: false; kind: 'forbidden' };

/** Whether the person of `context` may change a post with the text `text` (always, without `access`). */
export function mayChangeText(context: PostFilesContext, text: string): boolean {
  return context.access === undefined || context.access(ownershipOf(text));
}

/** What `text` is written as for the person of `context`; null: it cannot be written for them. */
export function textToWrite(context: PostFilesContext, text: string): string | null {
  return context.rawHtml === false ? withoutRawHtml(text) : text;
}

/** Why a text that textToWrite gives null for is not written. */
export const RAW_HTML_LOCKED = 'raw_html cannot be taken off this front matter, and only an owner may keep it';

interface FoundPost {
  path: PostPath;
  text: string;
  bytes: Buffer;
}

/**
 * Reads the post file `file` names, after checking the name, that it stays inside content_dir, and that the
 * person acting may change it (`forbidden` otherwise).
 */
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
  const text = bytes.toString('utf8');
  // The front matter on disk now decides, not what a listing or a form said earlier.
  if (!mayChangeText(context, text)) return { ok: false, kind: 'forbidden' };
  return { ok: true, post: { path: checked.path, text, bytes } };
}
