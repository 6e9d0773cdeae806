// Reading a version for the editor and saving it back (docs/admin.md "Posts"): a save presents the token of
// the version it was opened on, and a file changed on disk since is never overwritten.
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import { applyEdit } from './apply-edit.js';
import { findPost, mayChangeText, RAW_HTML_LOCKED, textToWrite, type PathRefusal, type PostFilesContext } from './context.js';
import { mergeVersions, unixLines } from './merge.js';
import { checkFields, readFields, type FieldProblem, type PostFields } from './post-fields.js';
import { splitPostText, type FrontMatterFormat } from './post-text.js';
import { slugTakenProblem } from './slug-owners.js';
import { versionToken } from './version-token.js';
import { writePostFile } from './write-post.js';

/** One version of a post, as the editor shows it. */
export interface EditableVersion {
  /** Relative to content_dir, `/`-separated. */
  file: string;
  /** The slug and language the file name gives (the front matter may override both). */
  fileSlug: string;
  fileLanguage: string | null;
  format: FrontMatterFormat;
  fields: PostFields;
  body: string;
  /** The whole file: the base of a three-way merge when a save meets a newer file. */
  text: string;
  /** What a save must present (see version-token.ts). */
  version: string;
}

export type ReadOutcome =
  | { ok: true; kind: 'found'; post: EditableVersion }
  | { ok: false; kind: 'unreadable'; reason: string }
  | PathRefusal;

export interface SaveRequest {
  file: string;
  /** The `version` the editor was opened on. */
  version: string;
  fields: PostFields;
  body: string;
  /**
   * The `text` the editor was opened on; with it, a conflict comes with a merge where the changes do not overlap.
   * Its line ends may be the browser's (CRLF): it is taken as the base when, with the file's own, it is `version`.
   */
  baseText?: string;
  /** Write that merge when the file changed meanwhile and the changes do not overlap, instead of a conflict. */
  mergeWhenApart?: boolean;
  /** What the save is recorded as (post-changes.ts): a plain edit unless it publishes or unpublishes. */
  action?: 'edit' | 'publish' | 'unpublish';
}

export type SaveOutcome =
  /** `merged`: the file had changed meanwhile, and both changes were written together. */
  | { ok: true; kind: 'saved'; file: string; version: string; changed: boolean; merged?: true }
  | { ok: false; kind: 'invalid'; problems: FieldProblem[] }
  | { ok: false; kind: 'unreadable'; reason: string }
  /** Nothing was written. `mine`: the file as this save would have written it; `theirs`: the file on disk now;
   * `merged`: both changes together, when a base was given and the changes do not overlap. */
  | { ok: false; kind: 'conflict'; mine: string; theirs: string; theirsVersion: string; merged: string | null }
  | PathRefusal;

/** The editable fields, body, format and version token of `file`. */
export async function readVersion(context: PostFilesContext, file: string): Promise<ReadOutcome> {
  const found = await findPost(context, file);
  if (!found.ok) return found;
  const { path, text, bytes } = found.post;
  const parts = splitPostText(text);
  const parsed = parseFrontMatter(text);
  if (!parts || !parsed.ok) return { ok: false, kind: 'unreadable', reason: parsed.ok ? 'no front matter' : parsed.reason };
  return {
    ok: true,
    kind: 'found',
    post: {
      file: path.relative,
      fileSlug: path.name.slug,
      fileLanguage: path.name.lang,
      format: parts.format,
      fields: readFields(parsed.data),
      body: parsed.body,
      text,
      version: versionToken(bytes),
    },
  };
}

/** Applies the editor's fields and body to the file, if it is still the version the editor opened. */
export async function saveVersion(context: PostFilesContext, request: SaveRequest): Promise<SaveOutcome> {
  const problems = checkFields(request.fields);
  if (problems.length > 0) return { ok: false, kind: 'invalid', problems };
  const found = await findPost(context, request.file);
  if (!found.ok) return found;
  const { path, text: theirs, bytes } = found.post;
  const current = versionToken(bytes);

  if (current !== request.version) {
    const base = request.baseText === undefined ? null : baseOf(request.baseText, request.version);
    const mine = applyEdit(base ?? theirs, request.fields, request.body);
    if (!mine.ok) return { ok: false, kind: 'unreadable', reason: mine.reason };
    const mergedText = base === null ? null : mergeVersions(mine.text, base, theirs);
    // A mark another person added meanwhile is not kept by the merge of someone who may not keep it.
    const merged = mergedText === null ? null : textToWrite(context, mergedText);
    const conflict = { ok: false, kind: 'conflict', mine: mine.text, theirs, theirsVersion: current, merged } as const;
    if (merged === null || !request.mergeWhenApart) return conflict;
    if (merged === theirs) return { ok: true, kind: 'saved', file: path.relative, version: current, changed: false };
    // The merge is written only if it is a file the person may change and the blog serves as well as theirs.
    const refused = await writeRefusal(context, path.relative, theirs, merged);
    if (refused) return refused.kind === 'forbidden' ? refused : conflict;
    await writePostFile(path.absolute, merged, true);
    return { ok: true, kind: 'saved', file: path.relative, version: versionToken(merged), changed: true, merged: true };
  }

  const applied = applyEdit(theirs, request.fields, request.body);
  if (!applied.ok) return { ok: false, kind: 'unreadable', reason: applied.reason };
  const edited = textToWrite(context, applied.text);
  if (edited === null) return { ok: false, kind: 'unreadable', reason: RAW_HTML_LOCKED };
  if (edited === theirs) return { ok: true, kind: 'saved', file: path.relative, version: current, changed: false };
  const refused = await writeRefusal(context, path.relative, theirs, edited);
  if (refused) return refused;
  await writePostFile(path.absolute, edited, true);
  return { ok: true, kind: 'saved', file: path.relative, version: versionToken(edited), changed: true };
}

/**
 * Why `after` may not replace `before` as `file`, or null: a save never makes a post one its author could no
 * longer change (an author's name taken off it), never gives it a slug another post has in its language, and
 * never makes a file the blog skips (one it already skipped for a reason the form cannot reach may still be
 * saved, if no worse).
 */
async function writeRefusal(context: PostFilesContext, file: string, before: string, after: string): Promise<{ ok: false; kind: 'forbidden' } | { ok: false; kind: 'invalid'; problems: FieldProblem[] } | null> {
  if (!mayChangeText(context, after)) return { ok: false, kind: 'forbidden' };
  const problem = context.blogProblem(file, after);
  if (problem !== null && problem !== context.blogProblem(file, before)) {
    return { ok: false, kind: 'invalid', problems: [{ field: fieldOf(problem), message: problem }] };
  }
  const taken = await slugTakenProblem(context, file, before, after);
  return taken ? { ok: false, kind: 'invalid', problems: [taken] } : null;
}

/**
 * The text the editor was opened on, from what the form sent back: as sent, or with the LF or CRLF line ends
 * the browser may have changed, whichever has the token `version`; null when none has (not that version's text).
 */
function baseOf(sent: string, version: string): string | null {
  const unix = unixLines(sent);
  for (const candidate of [sent, unix, unix.replace(/\n/g, '\r\n')]) {
    if (versionToken(candidate) === version) return candidate;
  }
  return null;
}

/** Publish (`draft` removed) or unpublish (`draft = true`), with the same fidelity as a save. */
export async function setDraftKey(
  context: PostFilesContext,
  file: string,
  draft: boolean,
  version?: string,
): Promise<SaveOutcome> {
  const opened = await readVersion(context, file);
  if (!opened.ok) return opened;
  const { post } = opened;
  return saveVersion(context, {
    file,
    version: version ?? post.version,
    fields: { ...post.fields, draft },
    body: post.body,
    baseText: version === undefined ? post.text : undefined,
    action: draft ? 'unpublish' : 'publish',
  });
}

/**
 * Replaces the whole file with `text` (a version from its history, docs/admin.md "Posts in git"), if it is still
 * the version `version` names: the same checks as a save (the person may change the result, the blog serves it as
 * well as the file now, no slug taken), else nothing is written.
 */
export async function replaceText(context: PostFilesContext, file: string, version: string, restored: string): Promise<SaveOutcome> {
  const found = await findPost(context, file);
  if (!found.ok) return found;
  const { path, text: theirs, bytes } = found.post;
  const text = textToWrite(context, withDraftOf(theirs, restored));
  if (text === null) return { ok: false, kind: 'unreadable', reason: RAW_HTML_LOCKED };
  const current = versionToken(bytes);
  if (current !== version) return { ok: false, kind: 'conflict', mine: text, theirs, theirsVersion: current, merged: null };
  if (text === theirs) return { ok: true, kind: 'saved', file: path.relative, version: current, changed: false };
  const refused = await writeRefusal(context, path.relative, theirs, text);
  if (refused) return refused;
  await writePostFile(path.absolute, text, true);
  return { ok: true, kind: 'saved', file: path.relative, version: versionToken(text), changed: true };
}

/**
 * `restored` with the publish state of `current`: restoring the text of a version that was a draft must not take
 * a live post off the blog, nor publish a draft (docs/admin.md "Posts in git").
 */
function withDraftOf(current: string, restored: string): string {
  const now = parseFrontMatter(current);
  const then = parseFrontMatter(restored);
  const parts = splitPostText(restored);
  if (!now.ok || !then.ok || !parts) return restored;
  const draft = now.data.draft === true;
  if ((then.data.draft === true) === draft) return restored;
  const edited = applyEdit(restored, { ...readFields(then.data), draft }, parts.body);
  return edited.ok ? edited.text : restored;
}

const fieldNames = ['title', 'slug', 'date', 'tags', 'draft', 'excerpt', 'cover', 'author', 'lang'] as const;

/** The field a blog reason starts with ("cover is neither..."), else the file as a whole. */
function fieldOf(reason: string): FieldProblem['field'] {
  const first = /^[a-z_]+/.exec(reason)?.[0];
  return fieldNames.find((name) => name === first) ?? 'file';
}
