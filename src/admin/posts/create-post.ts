// New posts and new translations (docs/admin.md "Posts"): a new post is `<slug>.md` with TOML front matter;
// a translation is `<slug>.<lang>.md` (or `<slug>/index.<lang>.md` beside a folder post), copied from a version.
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { checkSlug, parsePostFileName } from '../../blog/content/file-name.js';
import { canonicalLanguage, isKnownLanguage } from '../../blog/content/language.js';
import { applyEdit } from './apply-edit.js';
import { findPost, mayChangeText, RAW_HTML_LOCKED, textToWrite, type PathRefusal, type PostFilesContext } from './context.js';
import { readVersion } from './edit-post.js';
import { checkFields, emptyFields, type FieldProblem, type PostFields } from './post-fields.js';
import { isInsideContentDir } from './post-path.js';
import { foreignSlugProblem, ownerOfSlug, sameLanguage, servedPosts, slugTakenMessage } from './slug-owners.js';
import { slugOfTitle } from './slug-of-title.js';
import { versionToken } from './version-token.js';
import { writePostFile } from './write-post.js';

export type CreateOutcome =
  | { ok: true; kind: 'created'; file: string; version: string }
  | { ok: false; kind: 'invalid'; problems: FieldProblem[] }
  | { ok: false; kind: 'exists'; file: string }
  | { ok: false; kind: 'unreadable'; reason: string }
  | PathRefusal;

/**
 * Creates `<slug>.md`: the slug names the file (it is not written as a key), the other fields are written as TOML
 * keys in the order of docs/blog.md. An empty slug is made from the title (slug-of-title.ts), numbered past the
 * slugs taken. A typed slug is refused when any file of that slug exists, or another post has it in the new
 * post's language.
 */
export async function createPost(context: PostFilesContext, fields: PostFields, body: string): Promise<CreateOutcome> {
  const typed = fields.slug.trim();
  const fieldProblems = checkFields(fields);
  const lang = canonicalLanguage(fields.lang.trim()) ?? context.defaultLanguage;
  const slug = typed !== '' || fieldProblems.some((problem) => problem.field === 'title') ? typed : await freeSlugOfTitle(context, fields.title, lang);
  // No slug while the title is wrong: the title's problem says what to do.
  const slugProblem = slug === '' ? null : checkSlug(slug) ?? (fileNameGivesSlug(slug, context.languageNames) ? null : `the file "${slug}.md" would not be read as the slug "${slug}"`);
  const problems = [...(slugProblem ? [{ field: 'slug' as const, message: slugProblem }] : []), ...fieldProblems.filter((problem) => problem.field !== 'slug')];
  if (problems.length > 0) return { ok: false, kind: 'invalid', problems };
  const existing = await filesOfSlug(context, slug);
  if (existing.length > 0) return { ok: false, kind: 'exists', file: existing[0]! };
  const owner = await ownerOfSlug(context, slug, lang);
  if (owner !== null) return { ok: false, kind: 'invalid', problems: [{ field: 'slug', message: slugTakenMessage(slug, lang, owner) }] };
  const foreign = await foreignSlugProblem(context, slug);
  if (foreign) return { ok: false, kind: 'invalid', problems: [foreign] };

  const file = `${slug}.md`;
  const absolute = path.join(context.contentDir, file);
  if (!(await isInsideContentDir(context.contentDir, absolute, false))) return { ok: false, kind: 'refused', reason: 'not a path inside content_dir' };
  const built = applyEdit('+++\n+++\n', { ...fields, slug: '' }, body);
  if (!built.ok) return { ok: false, kind: 'unreadable', reason: built.reason };
  const text = textToWrite(context, built.text.replace(/^\+\+\+\n([\s\S]*?)\+\+\+\n/, '+++\n$1+++\n\n'));
  if (text === null) return { ok: false, kind: 'unreadable', reason: RAW_HTML_LOCKED };
  const problem = context.blogProblem(file, text);
  if (problem) return { ok: false, kind: 'invalid', problems: [{ field: 'file', message: problem }] };
  // A new post is one its creator may change: an author's carries their name.
  if (!mayChangeText(context, text)) return { ok: false, kind: 'forbidden' };
  await writePostFile(absolute, text, false);
  return { ok: true, kind: 'created', file, version: versionToken(text) };
}

/**
 * Copies the version `source` to the language `language`, as a draft (an untranslated copy is not published
 * on its own). A `lang` key in the copy is set to the new language. Refused when that version exists.
 */
export async function addTranslation(context: PostFilesContext, source: string, language: string): Promise<CreateOutcome> {
  const found = await findPost(context, source);
  if (!found.ok) return found;
  const canonical = canonicalLanguage(language.trim());
  if (!canonical || !isKnownLanguage(canonical, context.languageNames)) {
    return { ok: false, kind: 'invalid', problems: [{ field: 'lang', message: `"${language}" is not a language code such as "fr" or "pt-BR"` }] };
  }
  const { path: sourcePath, text } = found.post;
  const folderPost = sourcePath.relative.includes('/');
  const slug = sourcePath.name.slug;
  const file = folderPost ? `${slug}/index.${canonical}.md` : `${slug}.${canonical}.md`;
  const existing = await filesOfSlug(context, slug);
  const sameFile = existing.find((name) => name.toLowerCase() === file.toLowerCase());
  if (sameFile) return { ok: false, kind: 'exists', file: sameFile };

  const opened = await readVersion(context, source);
  if (!opened.ok) return opened;
  const fields: PostFields = { ...opened.post.fields, draft: true, lang: opened.post.fields.lang === '' ? '' : canonical };
  const applied = applyEdit(text, fields, opened.post.body);
  if (!applied.ok) return { ok: false, kind: 'unreadable', reason: applied.reason };
  const copy = { text: textToWrite(context, applied.text) };
  if (copy.text === null) return { ok: false, kind: 'unreadable', reason: RAW_HTML_LOCKED };
  const absolute = path.join(context.contentDir, ...file.split('/'));
  if (!(await isInsideContentDir(context.contentDir, absolute, false))) return { ok: false, kind: 'refused', reason: 'not a path inside content_dir' };
  await writePostFile(absolute, copy.text, false);
  return { ok: true, kind: 'created', file, version: versionToken(copy.text) };
}

/** The slug of `title` that no file name and no post in `lang` has yet: `<slug>`, else `<slug>-2`, `<slug>-3`... */
async function freeSlugOfTitle(context: PostFilesContext, title: string, lang: string): Promise<string> {
  const taken = new Set<string>();
  // A file or folder of the slug, in any language: `<slug>.md` beside them would join them as one post.
  const entries = await readdir(context.contentDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) taken.add(entry.name);
    else {
      const name = parsePostFileName(entry.name, context.languageNames);
      if (name) taken.add(name.slug);
    }
  }
  for (const post of await servedPosts(context)) if (sameLanguage(post.lang, lang)) taken.add(post.slug);
  return slugOfTitle(title, taken);
}

/** Fields of a new post: empty, dated today by `now`. */
export function newPostFields(now: number): PostFields {
  return { ...emptyFields(), date: new Date(now).toISOString().slice(0, 10) };
}

/** Whether `<slug>.md` is read back as the slug itself (not `notes.fr.md` = French `notes`, nor a hidden file). */
function fileNameGivesSlug(slug: string, names: Intl.DisplayNames): boolean {
  const name = parsePostFileName(`${slug}.md`, names);
  return name !== null && name.slug === slug && name.lang === null;
}

/** The post files of `slug` by file name: `<slug>.md`, `<slug>.<lang>.md`, and the folder `<slug>/` itself. */
async function filesOfSlug(context: PostFilesContext, slug: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(context.contentDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const name = parsePostFileName(entry, context.languageNames);
    if (name?.slug === slug) found.push(entry);
  }
  const folder = path.join(context.contentDir, slug);
  if (await access(folder).then(() => true, () => false)) {
    const inner = await readdir(folder).catch(() => [] as string[]);
    const posts = inner.filter((entry) => parsePostFileName(`${slug}/${entry}`, context.languageNames) !== null);
    found.push(...(posts.length > 0 ? posts.map((entry) => `${slug}/${entry}`) : [`${slug}/`]));
  }
  return found;
}
