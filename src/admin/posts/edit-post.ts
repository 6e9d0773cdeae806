// Reading a version for the editor and saving it back (docs/admin.md "Posts"): a save presents the token of
// the version it was opened on, and a file changed on disk since is never overwritten.
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import { applyEdit } from './apply-edit.js';
import { findPost, mayChangeText, type PathRefusal, type PostFilesContext } from './context.js';
import { mergeVersions } from './merge.js';
import { checkFields, readFields, type FieldProblem, type PostFields } from './post-fields.js';
import { splitPostText, type FrontMatterFormat } from './post-text.js';
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
  /** The `text` the editor was opened on; with it, a conflict comes with a merge where the changes do not overlap. */
  baseText?: string;
}

export type SaveOutcome =
  | { ok: true; kind: 'saved'; file: string; version: string; changed: boolean }
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
    const base = request.baseText !== undefined && versionToken(request.baseText) === request.version ? request.baseText : null;
    const mine = applyEdit(base ?? theirs, request.fields, request.body);
    if (!mine.ok) return { ok: false, kind: 'unreadable', reason: mine.reason };
    const merged = base === null ? null : mergeVersions(mine.text, base, theirs);
    return { ok: false, kind: 'conflict', mine: mine.text, theirs, theirsVersion: current, merged };
  }

  const edited = applyEdit(theirs, request.fields, request.body);
  if (!edited.ok) return { ok: false, kind: 'unreadable', reason: edited.reason };
  if (edited.text === theirs) return { ok: true, kind: 'saved', file: path.relative, version: current, changed: false };
  // A save never makes a post one its author could no longer change (an author's name taken off it).
  if (!mayChangeText(context, edited.text)) return { ok: false, kind: 'forbidden' };
  const problem = context.blogProblem(path.relative, edited.text);
  // A file the blog already skipped for a reason the form cannot reach may still be saved, if no worse.
  if (problem !== null && problem !== context.blogProblem(path.relative, theirs)) {
    return { ok: false, kind: 'invalid', problems: [{ field: fieldOf(problem), message: problem }] };
  }
  await writePostFile(path.absolute, edited.text, true);
  return { ok: true, kind: 'saved', file: path.relative, version: versionToken(edited.text), changed: true };
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
  });
}

const fieldNames = ['title', 'slug', 'date', 'tags', 'draft', 'excerpt', 'cover', 'author', 'lang'] as const;

/** The field a blog reason starts with ("cover is neither..."), else the file as a whole. */
function fieldOf(reason: string): FieldProblem['field'] {
  const first = /^[a-z_]+/.exec(reason)?.[0];
  return fieldNames.find((name) => name === first) ?? 'file';
}
