// Turns one post file into a PostVersion, or the reason it is skipped (docs/blog.md "Front matter"; the reasons
// are listed under "Changes are picked up on their own"). Pure: the caller reads the file and logs the outcome.
import { FEDIVERSE_HANDLE } from '../../config/schema.js';
import { foldCase } from '../text/fold-case.js';
import { dateFormatHint, normalizeDate } from './dates.js';
import { checkSlug, parsePostFileName } from './file-name.js';
import { parseFrontMatter } from './front-matter.js';
import { checkFrontMatter, describeFrontMatterIssues, type FrontMatter } from './front-matter-schema.js';
import { canonicalLanguage } from './language.js';
import type { MarkdownTools } from './markdown.js';
import { LoadedPost, type PostFields, type PostFile } from './loaded-post.js';
import type { PostCover } from './post.js';

export interface ParseContext {
  markdown: MarkdownTools;
  languageNames: Intl.DisplayNames;
  /** site.language: the language of a post that names none. */
  defaultLanguage: string;
  /** site.base_url without a trailing slash: relative cover paths are made absolute on it. */
  baseUrl: string;
}

export type ParseOutcome =
  | { ok: true; post: LoadedPost; warnings: string[] }
  | { ok: false; reason: string };

/**
 * Parses the file at `file` (relative to content_dir) whose content is `text`. With `origin` (the file `text` was
 * read from) the post does not keep its body: it reads it from there each time the body is needed.
 */
export function parsePostFile(file: string, text: string, context: ParseContext, origin?: PostFile): ParseOutcome {
  const name = parsePostFileName(file, context.languageNames);
  if (!name) return { ok: false, reason: 'not a post file name' };
  const split = parseFrontMatter(text);
  if (!split.ok) return split;
  const checked = checkFrontMatter(split.data);
  if (!checked.success) return { ok: false, reason: describeFrontMatterIssues(checked.error) };
  const front = checked.data;

  const date = normalizeDate(front.date);
  if (!date) return { ok: false, reason: `date ${dateFormatHint}` };
  const updated = front.updated === undefined ? null : normalizeDate(front.updated);
  if (updated === null && front.updated !== undefined) return { ok: false, reason: `updated ${dateFormatHint}` };

  const slug = front.slug?.trim() || name.slug;
  const slugProblem = checkSlug(slug);
  if (slugProblem) return { ok: false, reason: slugProblem };

  let lang = name.lang ?? context.defaultLanguage;
  if (front.lang !== undefined) {
    const canonical = canonicalLanguage(front.lang.trim());
    if (!canonical) return { ok: false, reason: `lang "${front.lang}" is not a language code such as "en" or "pt-BR"` };
    lang = canonical;
  }

  const warnings: string[] = [];
  let fediverseCreator: string | null = front.fediverse_creator?.trim() || null;
  if (fediverseCreator !== null && !FEDIVERSE_HANDLE.test(fediverseCreator)) {
    warnings.push(`fediverse_creator "${front.fediverse_creator}" is not an @user@host handle; it is ignored`);
    fediverseCreator = null;
  }
  const cover = resolveCover(front.cover, context.baseUrl);
  if (cover === 'invalid') return { ok: false, reason: 'cover is neither an http(s) URL nor a path' };

  const bodyStart = text.length - split.body.length;
  const fields: PostFields = {
    file,
    slug,
    lang,
    hasLanguageSuffix: name.lang !== null,
    title: front.title,
    date,
    updated,
    draft: front.draft,
    tags: uniqueTags(front.tags),
    allLangs: front.all_langs,
    rawHtml: front.raw_html,
    comments: front.comments,
    newsletter: front.newsletter,
    author: front.author?.trim() || null,
    fediverseCreator,
    cover,
  };
  const source = { bodyStart, body: origin ?? split.body, frontMatterExcerpt: front.excerpt, markdown: context.markdown };
  return { ok: true, warnings, post: new LoadedPost(fields, source) };
}

/** A URL stays as it is; a path (`/img/a.png`, `img/a.png`) is made absolute on site.base_url. */
function resolveCover(cover: FrontMatter['cover'], baseUrl: string): PostCover | null | 'invalid' {
  if (cover === undefined) return null;
  const source = (typeof cover === 'string' ? cover : cover.src).trim();
  const alt = typeof cover === 'string' ? null : cover.alt?.trim() || null;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(source)) {
    return /^https?:\/\/[^/]/i.test(source) ? { url: source, alt } : 'invalid';
  }
  if (source.startsWith('//')) return 'invalid';
  const path = source.replace(/^(?:\.\/|\/)+/, '');
  try {
    return { url: new URL(`${baseUrl}/${path}`).href, alt };
  } catch {
    return 'invalid';
  }
}

/** Tags in the author's order; a tag repeated in another case is dropped (tags match case-insensitively). */
function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = foldCase(tag);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
