// A post as the fediverse sees it (docs/activitypub.md "Posts"): an Article whose `url` is the post's public page
// and whose `id` is a stable URL on the blog's listener, and the change that tells an edit apart. Pure.
import { createHash } from 'node:crypto';
import type { Catalog, CatalogEntry } from '../blog/catalog/catalog.js';
import { publicPostUrl } from '../blog/feeds/public-url.js';

/** What an Article says of one published post version. */
export interface ArticleFields {
  /** `<slug>@<lang>`: the version's key in the delivered record. */
  key: string;
  slug: string;
  id: string;
  url: string;
  name: string;
  summary: string;
  /** The post's HTML. */
  content: string;
  lang: string;
  /** RFC 3339. */
  published: string;
  updated: string | null;
  tags: string[];
  images: Array<{ url: string; alt: string | null }>;
  /** A hash of every field above: a new one means the post was edited. */
  change: string;
}

/** Where Articles live on the blog's listener. */
export const ARTICLE_PATH = '/activitypub/posts/{lang}/{slug}';

/** The Article id of a post version, on `origin` (the blog's public_url). */
export function articleIdOf(origin: string, slug: string, lang: string): string {
  return `${origin}${ARTICLE_PATH.replace('{lang}', encodeURIComponent(lang)).replace('{slug}', encodeURIComponent(slug))}`;
}

/** The Article of a published version; `html` is its rendered body. */
export function articleOf(catalog: Catalog, entry: CatalogEntry, html: string, origin: string): ArticleFields {
  const { post } = entry;
  const fields = {
    key: `${post.slug}@${post.lang}`,
    slug: post.slug,
    id: articleIdOf(origin, post.slug, post.lang),
    url: publicPostUrl(catalog, entry),
    name: post.title,
    summary: post.excerpt,
    content: html,
    lang: post.lang,
    published: post.date.rfc3339,
    updated: post.updated?.rfc3339 ?? null,
    tags: post.tags,
    images: post.cover ? [{ url: post.cover.url, alt: post.cover.alt }] : [],
  };
  return { ...fields, change: createHash('sha256').update(JSON.stringify(fields)).digest('base64url') };
}

/**
 * The published versions of a catalog as Articles, newest first. A version unchanged between catalogs is the same
 * object, so its Article is made once: a post's HTML is read and rendered again only when it changed.
 */
export function createArticleList(origin: string): (catalog: Catalog, html: (entry: CatalogEntry) => string) => ArticleFields[] {
  const made = new WeakMap<CatalogEntry['post'], { primary: boolean; article: ArticleFields }>();
  return (catalog, html) =>
    catalog.published.map((entry) => {
      const known = made.get(entry.post);
      if (known?.primary === entry.primary) return known.article;
      const article = articleOf(catalog, entry, html(entry), origin);
      made.set(entry.post, { primary: entry.primary, article });
      return article;
    });
}
