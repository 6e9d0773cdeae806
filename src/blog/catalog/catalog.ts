// The published posts grouped by slug, with primary versions, translations and the effective fields
// (contract section 4). Built once per content version; every response is derived from it.
import type { BlogConfig, SiteConfig } from '../../config/schema.js';
import { languageKey } from '../content/language.js';
import type { PostVersion } from '../content/post.js';
import { foldCase } from './search.js';
import { createSummary, type PostSummary } from './summary.js';

export interface CatalogEntry {
  post: PostVersion;
  /** The slug's primary version (listed without `lang`, served at the URL without `?lang=`). */
  primary: boolean;
  /** Folded tags, for the case-insensitive `tag` filter. */
  tagKeys: string[];
  summary: PostSummary;
}

export interface SlugGroup {
  primary: CatalogEntry | null;
  /** Published versions by language key. */
  versions: Map<string, CatalogEntry>;
  /** Language keys of draft versions. */
  drafts: Set<string>;
  /** The version shown for a language the slug has no version in, when one is marked all_langs. */
  allLanguages: CatalogEntry | null;
}

export interface Catalog {
  site: SiteConfig;
  blog: BlogConfig;
  /** Published primary versions, newest first, then slug ascending. */
  primaries: CatalogEntry[];
  /** Every published version in the same order. */
  published: CatalogEntry[];
  groups: Map<string, SlugGroup>;
}

/** Newest first; the same date orders by slug, then language (contract section 4). */
export function compareEntries(a: CatalogEntry, b: CatalogEntry): number {
  return b.post.date.time - a.post.date.time || compareText(a.post.slug, b.post.slug) || compareText(a.post.lang, b.post.lang);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Builds the catalog of `posts` (already free of duplicate slug/language pairs). */
export function buildCatalog(posts: readonly PostVersion[], site: SiteConfig, blog: BlogConfig): Catalog {
  const bySlug = new Map<string, PostVersion[]>();
  for (const post of posts) {
    const list = bySlug.get(post.slug);
    if (list) list.push(post);
    else bySlug.set(post.slug, [post]);
  }
  const groups = new Map<string, SlugGroup>();
  const published: CatalogEntry[] = [];
  for (const [slug, versions] of bySlug) {
    const live = versions.filter((post) => !post.draft).sort((a, b) => compareText(languageKey(a.lang), languageKey(b.lang)));
    const primaryPost = choosePrimary(live, site.language);
    const translations = Object.fromEntries(
      live.map((post) => [post.lang, `/api/blog/posts/${encodeURIComponent(slug)}?lang=${encodeURIComponent(post.lang)}`]),
    );
    const group: SlugGroup = {
      primary: null,
      versions: new Map(),
      drafts: new Set(versions.filter((post) => post.draft).map((post) => languageKey(post.lang))),
      allLanguages: null,
    };
    for (const post of live) {
      const isPrimary = post === primaryPost;
      const { [post.lang]: _self, ...others } = translations;
      const entry: CatalogEntry = {
        post,
        primary: isPrimary,
        tagKeys: post.tags.map(foldCase),
        summary: createSummary(post, site, isPrimary, others),
      };
      group.versions.set(languageKey(post.lang), entry);
      if (isPrimary) group.primary = entry;
      published.push(entry);
    }
    group.allLanguages = group.primary?.post.allLangs ? group.primary : ([...group.versions.values()].find((entry) => entry.post.allLangs) ?? null);
    groups.set(slug, group);
  }
  published.sort(compareEntries);
  return { site, blog, primaries: published.filter((entry) => entry.primary), published, groups };
}

/**
 * The version in site.language, else the one whose file name has no language suffix, else the smallest
 * language code. Only published versions compete: a draft translation never hides a published one.
 */
function choosePrimary(live: PostVersion[], siteLanguage: string): PostVersion | null {
  const siteKey = languageKey(siteLanguage);
  return live.find((post) => languageKey(post.lang) === siteKey) ?? live.find((post) => !post.hasLanguageSuffix) ?? live[0] ?? null;
}

export type PostLookup = { kind: 'found'; entry: CatalogEntry } | { kind: 'draft' } | { kind: 'not_found' };

/** `/posts/{slug}` with an optional `lang` (contract section 4). */
export function findPost(catalog: Catalog, slug: string, lang: string | undefined): PostLookup {
  const group = catalog.groups.get(slug);
  if (!group) return { kind: 'not_found' };
  if (lang === undefined) {
    if (group.primary) return { kind: 'found', entry: group.primary };
    return group.drafts.size > 0 ? { kind: 'draft' } : { kind: 'not_found' };
  }
  const key = languageKey(lang);
  const version = group.versions.get(key);
  if (version) return { kind: 'found', entry: version };
  if (group.drafts.has(key)) return { kind: 'draft' };
  if (group.allLanguages) return { kind: 'found', entry: group.allLanguages };
  return { kind: 'not_found' };
}
