// A post file's text with the editor's fields and body applied to it, changing nothing else (pure).
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import { editFrontMatter } from './front-matter-edit.js';
import { diffFields, readFields, type PostFields } from './post-fields.js';
import { joinPostText, splitPostText, withNewlines } from './post-text.js';

export type ApplyOutcome = { ok: true; text: string } | { ok: false; reason: string };

/** `text` with `fields` and `body`; the front matter keeps its format, its other keys, their order and comments. */
export function applyEdit(text: string, fields: PostFields, body: string): ApplyOutcome {
  const parts = splitPostText(text);
  const parsed = parseFrontMatter(text);
  if (!parts || !parsed.ok) return { ok: false, reason: parsed.ok ? 'no front matter' : parsed.reason };
  const edits = diffFields(readFields(parsed.data), fields);
  const edited = editFrontMatter(parts.frontMatter, parts.format, edits, parts.newline);
  if (!edited.ok) return edited;
  const newBody = withNewlines(body, parts.newline);
  const sameBody = withNewlines(parts.body, parts.newline) === newBody;
  return { ok: true, text: joinPostText({ ...parts, frontMatter: edited.frontMatter, body: sameBody ? parts.body : newBody }) };
}
