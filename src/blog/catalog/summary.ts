// The JSON shapes of a post summary and a post detail (docs/blog.md "What the API answers").
import type { PostCover } from '../content/post.js';
import type { CatalogEntry } from './catalog.js';

export interface PostSummary {
  slug: string;
  title: string;
  excerpt: string;
  date: string;
  lang: string;
  tags: string[];
  author: string | null;
  fediverse_creator: string | null;
  cover: PostCover | null;
  reading_time: number;
  translations: Record<string, string>;
  digest: string;
  translation_digests: Record<string, string>;
  url: string;
}

export interface PostDetail extends PostSummary {
  body: string;
  html: string;
}

/** The summary of a catalog entry. */
export function createSummary(entry: CatalogEntry): PostSummary {
  const { post } = entry;
  return {
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    date: post.date.day,
    lang: post.lang,
    tags: post.tags,
    author: entry.author,
    fediverse_creator: entry.fediverseCreator,
    cover: post.cover,
    reading_time: post.readingTime,
    translations: entry.translations,
    digest: post.digest,
    translation_digests: translationDigests(entry),
    url: entry.url,
  };
}

/** The digest of each other published language, by language (the keys of `translations`). */
function translationDigests(entry: CatalogEntry): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const sibling of entry.siblings) if (sibling !== entry.post) digests[sibling.lang] = sibling.digest;
  return digests;
}

/** The detail: the summary plus the raw Markdown (`body`, when the caller has read it already) and the rendered HTML. */
export function createDetail(entry: CatalogEntry, html: string, body: string = entry.post.body): PostDetail {
  return { ...createSummary(entry), body, html };
}
