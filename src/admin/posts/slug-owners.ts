// Which post has a slug in a language, read from the files on disk at the moment of a create or a save (the blog's
// own listing may be two seconds old). The blog serves one post per slug and language: a second file with the
// same pair is skipped as a duplicate (src/blog/content/slug-versions.ts), so the admin refuses to write one.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePostFileName } from '../../blog/content/file-name.js';
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import { canonicalLanguage, languageKey } from '../../blog/content/language.js';
import type { PostFilesContext } from './context.js';
import { ownershipOf } from './post-access.js';

/** The slug and language a post file is served under. */
export interface SlugAndLanguage {
  slug: string;
  /** Canonical; the site's language when neither the file name nor the front matter names one. */
  lang: string;
}

/** Files read at once while looking for a slug. */
const READ_AT_ONCE = 32;

/** The slug and language the blog serves `text` under as the file `file` (null: not a post file name). */
export function slugAndLanguageOf(context: PostFilesContext, file: string, text: string): SlugAndLanguage | null {
  const name = parsePostFileName(file, context.languageNames);
  if (!name) return null;
  const parsed = parseFrontMatter(text);
  const data = parsed.ok ? parsed.data : {};
  const slug = typeof data.slug === 'string' && data.slug.trim() !== '' ? data.slug.trim() : name.slug;
  const lang = (typeof data.lang === 'string' ? canonicalLanguage(data.lang.trim()) : null) ?? name.lang ?? context.defaultLanguage;
  return { slug, lang };
}

/** Whether two languages are the same one for the blog. */
export function sameLanguage(a: string, b: string): boolean {
  return languageKey(a) === languageKey(b);
}

/**
 * Every post file (other than `except`) served as `slug`: by its file name, or by a front-matter `slug` key.
 * Only files whose name gives the slug or whose text holds it are parsed.
 */
export async function postsWithSlug(context: PostFilesContext, slug: string, except?: string): Promise<Array<{ file: string } & SlugAndLanguage>> {
  return servedPosts(context, (file, text) => parsePostFileName(file, context.languageNames)?.slug === slug || text.includes(slug), except).then((posts) =>
    posts.filter((post) => post.slug === slug),
  );
}

/** The slug and language of every post file (other than `except`) that `worthParsing` keeps. */
export async function servedPosts(
  context: PostFilesContext,
  worthParsing: (file: string, text: string) => boolean = () => true,
  except?: string,
): Promise<Array<{ file: string } & SlugAndLanguage>> {
  const found: Array<{ file: string } & SlugAndLanguage> = [];
  const files = (await postFilesOf(context)).filter((file) => file !== except);
  for (let start = 0; start < files.length; start += READ_AT_ONCE) {
    const batch = files.slice(start, start + READ_AT_ONCE);
    const texts = await Promise.all(batch.map((file) => readFile(path.join(context.contentDir, ...file.split('/')), 'utf8').catch(() => null)));
    batch.forEach((file, index) => {
      const text = texts[index];
      if (text === null || text === undefined || !worthParsing(file, text)) return;
      const served = slugAndLanguageOf(context, file, text);
      if (served) found.push({ file, ...served });
    });
  }
  return found;
}

/** The other post file served as `slug` in `lang`, or null when there is none. */
export async function ownerOfSlug(context: PostFilesContext, slug: string, lang: string, except?: string): Promise<string | null> {
  const owners = await postsWithSlug(context, slug, except);
  return owners.find((owner) => sameLanguage(owner.lang, lang))?.file ?? null;
}

/** The post files of content_dir, as the blog finds them: `*.md` at the top and one folder down. */
async function postFilesOf(context: PostFilesContext): Promise<string[]> {
  const entries = await readdir(context.contentDir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      const inner = await readdir(path.join(context.contentDir, entry.name)).catch(() => [] as string[]);
      for (const name of inner) if (parsePostFileName(`${entry.name}/${name}`, context.languageNames)) files.push(`${entry.name}/${name}`);
    } else if (parsePostFileName(entry.name, context.languageNames)) {
      files.push(entry.name);
    }
  }
  return files.sort();
}

/**
 * The problem of writing `after` as `file` (which held `before`, or nothing yet): another post is served with the
 * slug and language `after` would have. Null when there is none, or when the pair does not change (a file that
 * already shares its pair is no worse for a save that keeps it).
 */
export async function slugTakenProblem(context: PostFilesContext, file: string, before: string | null, after: string): Promise<{ field: 'slug'; message: string } | null> {
  const next = slugAndLanguageOf(context, file, after);
  if (!next) return null;
  const previous = before === null ? null : slugAndLanguageOf(context, file, before);
  if (previous && previous.slug === next.slug && sameLanguage(previous.lang, next.lang)) return null;
  const owner = await ownerOfSlug(context, next.slug, next.lang, file);
  if (owner !== null) return { field: 'slug', message: slugTakenMessage(next.slug, next.lang, owner) };
  return previous?.slug === next.slug ? null : foreignSlugProblem(context, next.slug, file);
}

/**
 * The problem of joining `slug` for the person of `context`: a post of that slug in any language is one they
 * may not change. Its other versions are its translations, and a translation of a post is created and changed
 * only by who may change the post (docs/admin.md "What each role may do"). Null without `access`.
 */
export async function foreignSlugProblem(context: PostFilesContext, slug: string, except?: string): Promise<{ field: 'slug'; message: string } | null> {
  const access = context.access;
  if (access === undefined) return null;
  for (const other of await postsWithSlug(context, slug, except)) {
    const text = await readFile(path.join(context.contentDir, ...other.file.split('/')), 'utf8').catch(() => '');
    if (!access(ownershipOf(text))) {
      return { field: 'slug', message: `the slug "${slug}" is another person's post (${other.file}): only who may change it may add or change its translations. Choose another slug, or leave it empty.` };
    }
  }
  return null;
}

/** What the editor says of a slug another post has: the other post's file by name. */
export function slugTakenMessage(slug: string, lang: string, owner: string): string {
  return `the slug "${slug}" is taken: the post ${owner} has it in the same language (${lang}). Choose another slug, or leave it empty.`;
}
