// Who may have a post's HTML written through as it is (docs/admin.md "Raw HTML"): owners only. Every write made
// for anyone else takes the front-matter key `raw_html` off the file, so its HTML is sanitised (the blog's
// content/html-policy.ts) until an owner marks it again: an author's or editor's script never runs as written.
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import type { PostActor } from './post-access.js';
import { editFrontMatter } from './front-matter-edit.js';
import { joinPostText, splitPostText } from './post-text.js';

/** Whether `actor` may mark a post `raw_html` and keep the mark when they save it. */
export function mayWriteRawHtml(actor: PostActor): boolean {
  return actor.role === 'owner';
}

/** Whether the post file's text is marked `raw_html = true`. */
export function isRawHtml(text: string): boolean {
  const parsed = parseFrontMatter(text);
  return parsed.ok && parsed.data.raw_html === true;
}

/**
 * `text` without the mark: unchanged when it has none, else with its `raw_html` key removed; null when the key
 * cannot be taken off (front matter the editor cannot change), so that the write is refused.
 */
export function withoutRawHtml(text: string): string | null {
  if (!isRawHtml(text)) return text;
  const parts = splitPostText(text);
  if (!parts) return null;
  const edited = editFrontMatter(parts.frontMatter, parts.format, [{ key: 'raw_html', value: undefined }], parts.newline);
  if (!edited.ok) return null;
  const result = joinPostText({ ...parts, frontMatter: edited.frontMatter });
  return parseFrontMatter(result).ok && !isRawHtml(result) ? result : null;
}
