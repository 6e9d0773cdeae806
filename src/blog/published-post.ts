// A published post as a campaign mails it: the same title, page address and HTML the API and the feeds give,
// read from the blog's current catalog (drafts and scheduled versions are never part of it).
import type { Catalog, CatalogEntry } from './catalog/catalog.js';
import { languageKey } from './content/language.js';
import { publicPostUrl } from './feeds/public-url.js';

/** One published version of a post, as plain data. */
export interface PublishedPost {
  slug: string;
  /** Canonical language code of the version. */
  lang: string;
  title: string;
  /** The public page of the version (post_url, or translation_url for a version that is not the primary). */
  url: string;
  /** The rendered body as the API detail gives it: links to files beside the post are absolute media URLs. */
  html: string;
  /** RFC 3339; a plain date is midnight UTC. */
  date: string;
}

/**
 * The published version of `slug`: its primary version without `lang`, else the version in `lang` (compared like
 * the API compares language codes). Unlike the API, no all_langs version stands in for a missing language: a
 * campaign mails exactly the version it was asked for. `html` renders an entry as the API detail does.
 */
export function findPublishedPost(
  catalog: Catalog,
  html: (entry: CatalogEntry) => string,
  slug: string,
  lang?: string,
): PublishedPost | undefined {
  const group = catalog.groups.get(slug);
  const entry = lang === undefined ? group?.primary : group?.versions.get(languageKey(lang));
  if (!entry) return undefined;
  const { post } = entry;
  return { slug: post.slug, lang: post.lang, title: post.title, url: publicPostUrl(catalog, entry), html: html(entry), date: post.date.rfc3339 };
}

/** A published version as the newsletter's automations look for new ones (docs/newsletter.md "Automations"). */
export interface PublishedVersion {
  slug: string;
  lang: string;
  /** Milliseconds since 1970 of its `date`: when it was, or is to be, published. */
  publishedAt: number;
  /** Front matter `newsletter`: false keeps it out of the automations' mails. */
  newsletter: boolean;
  /** The slug's primary version (a digest names a post by it). */
  primary: boolean;
}

/** Every version `catalog` publishes now, newest first. */
export function listPublishedVersions(catalog: Catalog): PublishedVersion[] {
  return catalog.published.map(({ post, primary }) => ({ slug: post.slug, lang: post.lang, publishedAt: post.date.time, newsletter: post.newsletter, primary }));
}
