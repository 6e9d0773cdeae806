// Which files are posts (docs/blog.md "Where posts live"): `<slug>.md`, `<slug>/index.md`, `<slug>.<lang>.md`,
// `<slug>/index.<lang>.md`. Paths are relative to content_dir with `/` separators.
import { knownLanguage } from './language.js';

export interface PostFileName {
  slug: string;
  /** The language named by the file name, canonical; null without a suffix. */
  lang: string | null;
}

/** Reads slug and language from a relative path, or returns null when the path is not a post file. */
export function parsePostFileName(relativePath: string, names: Intl.DisplayNames): PostFileName | null {
  const parts = relativePath.split('/');
  if (parts.some((part) => part.startsWith('.'))) return null;
  if (parts.length === 1) {
    const stem = stripMarkdownExtension(parts[0]!);
    if (stem === null) return null;
    return splitLanguage(stem, names);
  }
  if (parts.length === 2) {
    const stem = stripMarkdownExtension(parts[1]!);
    if (stem === null) return null;
    if (stem === 'index') return { slug: parts[0]!, lang: null };
    const lang = stem.startsWith('index.') ? knownLanguage(stem.slice('index.'.length), names) : null;
    return lang === null ? null : { slug: parts[0]!, lang };
  }
  return null;
}

function stripMarkdownExtension(name: string): string | null {
  return name.endsWith('.md') && name.length > 3 ? name.slice(0, -3) : null;
}

function splitLanguage(stem: string, names: Intl.DisplayNames): PostFileName {
  const dot = stem.lastIndexOf('.');
  if (dot > 0) {
    const lang = knownLanguage(stem.slice(dot + 1), names);
    if (lang !== null) return { slug: stem.slice(0, dot), lang };
  }
  return { slug: stem, lang: null };
}

/** Why a slug cannot be served, or null when it is fine: no separators, dot segments or control characters. */
export function checkSlug(slug: string): string | null {
  if (slug.length === 0) return 'the slug is empty';
  if (slug === '.' || slug === '..') return `the slug "${slug}" is not allowed`;
  if (/[/\\?#\s\p{Cc}]/u.test(slug)) return `the slug "${slug}" contains a slash, "?", "#", white space or a control character`;
  // Direction controls make a slug read differently from how it is stored (one post posing as another).
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u.test(slug)) return 'the slug contains a direction control character (such as a right-to-left mark)';
  return null;
}
