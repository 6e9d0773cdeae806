// The published posts grouped by slug, with primary versions, translations and the effective fields
// (docs/blog.md "Translations" and "What the API answers"). Built once per content version; every response
// is derived from it.
import type { BlogConfig, SiteConfig } from '../../config/config.js';
import { languageKey } from '../content/language.js';
import type { PostVersion } from '../content/post.js';
import { foldCase } from '../text/fold-case.js';
import { visibilityOf } from './visibility.js';

export interface CatalogEntry {
  post: PostVersion;
  /** The slug's primary version (listed without `lang`, served at the URL without `?lang=`). */
  primary: boolean;
  /** Folded tags, for the case-insensitive `tag` filter. */
  tagKeys: string[];
  /** The post's author, else the site's, else null. */
  author: string | null;
  /** The post's valid fediverse_creator, else the site's, else null. */
  fediverseCreator: string | null;
  /** The slug's other published languages -> their API URLs. */
  translations: Record<string, string>;
  /** The slug's published versions, this one included (one array for the slug): the translations' digests. */
  siblings: readonly PostVersion[];
  /** API URL: `/api/blog/posts/<slug>`, with `?lang=` for a version that is not the primary one. */
  url: string;
}

export interface SlugGroup {
  /** Every version of the slug, drafts included, by file path. */
  sources: readonly PostVersion[];
  primary: CatalogEntry | null;
  /** Published versions by language key. */
  versions: Map<string, CatalogEntry>;
  /** Language keys of draft versions. */
  drafts: ReadonlySet<string>;
  /** The version shown for a language the slug has no version in, when one is marked all_langs. */
  allLanguages: CatalogEntry | null;
  /** The group holds for every moment in [shownSince, nextRelease): see Catalog. */
  shownSince: number;
  nextRelease: number;
}

export interface Catalog {
  site: SiteConfig;
  blog: BlogConfig;
  /** Published primary versions, newest first, then slug ascending. */
  primaries: CatalogEntry[];
  /** Every published version in the same order. */
  published: CatalogEntry[];
  groups: Map<string, SlugGroup>;
  /**
   * The catalog is right for every moment in [shownSince, nextRelease): shownSince is the latest date of a
   * published version (-Infinity without one), nextRelease the earliest date of a scheduled one (Infinity
   * without one). At nextRelease a scheduled post is due and the catalog must be built again.
   */
  shownSince: number;
  nextRelease: number;
}

/** Whether `catalog` still shows what the visibility rule says at `now`. */
export function isCatalogCurrent(catalog: Catalog, now: number): boolean {
  return now >= catalog.shownSince && now < catalog.nextRelease;
}

/** Newest first; the same date orders by slug (docs/blog.md "/posts parameters"), then language. */
export function compareEntries(a: CatalogEntry, b: CatalogEntry): number {
  return b.post.date.time - a.post.date.time || compareText(a.post.slug, b.post.slug) || compareText(a.post.lang, b.post.lang);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The versions a catalog is built from: each slug's, one per language (duplicates dropped), in path order. */
export type VersionsBySlug = ReadonlyMap<string, readonly PostVersion[]>;

/** `posts` (already free of duplicate slug/language pairs) by slug, each slug's in path order. */
export function groupBySlug(posts: readonly PostVersion[]): VersionsBySlug {
  const bySlug = new Map<string, PostVersion[]>();
  for (const post of posts) {
    const list = bySlug.get(post.slug);
    if (list) list.push(post);
    else bySlug.set(post.slug, [post]);
  }
  for (const list of bySlug.values()) list.sort((a, b) => compareText(a.file, b.file));
  return bySlug;
}

/**
 * Builds the catalog of `versions` as it is at `now` (milliseconds since the epoch): scheduled versions are left
 * out like drafts. A slug whose files are the very same PostVersion objects as in `previous`, and whose versions
 * are all on the same side of `now`, keeps its entries, so that an edit to one post does not re-derive (and
 * re-serialise) the other 9,999. With `changedSlugs` (the slugs whose versions may differ from those `previous`
 * was built from) and a `previous` that still holds at `now`, only those slugs are looked at: at 100,000 posts
 * that spares a visit to every slug per edit. The `q` index is built afterwards, in the background
 * (search-indexer.ts).
 */
export function buildCatalog(versions: VersionsBySlug, site: SiteConfig, blog: BlogConfig, now: number, previous?: Catalog, changedSlugs?: ReadonlySet<string>): Catalog {
  const reusable = previous && previous.site === site && previous.blog === blog ? previous : undefined;
  if (reusable && changedSlugs && isCatalogCurrent(reusable, now)) return updatedCatalog(reusable, versions, changedSlugs, now);
  const groups = new Map<string, SlugGroup>();
  const fresh: CatalogEntry[] = [];
  const kept = new Set<SlugGroup>();
  // Groups of the previous catalog built again (edited, or due to change with time), with their entries.
  const replaced: SlugGroup[] = [];
  let shownSince = -Infinity;
  let nextRelease = Infinity;
  for (const [slug, sources] of versions) {
    const before = reusable?.groups.get(slug);
    const reuse = before && sameVersions(before.sources, sources) && now >= before.shownSince && now < before.nextRelease;
    const group = reuse ? before : buildGroup(slug, sources, site, now);
    groups.set(slug, group);
    if (reuse) kept.add(group);
    else {
      if (before) replaced.push(before);
      for (const entry of group.versions.values()) fresh.push(entry);
    }
    shownSince = Math.max(shownSince, group.shownSince);
    nextRelease = Math.min(nextRelease, group.nextRelease);
  }
  const removed = replaced.flatMap((group) => [...group.versions.values()]);
  const patched = reusable && reusable.groups.size === kept.size + replaced.length ? patchedLists(reusable, removed, fresh) : null;
  if (patched) return { site, blog, ...patched, groups, shownSince, nextRelease };
  const published = reusable ? reusable.published.filter((entry) => kept.has(reusable.groups.get(entry.post.slug)!)) : [];
  for (const entry of fresh) published.push(entry);
  published.sort(compareEntries);
  return { site, blog, primaries: published.filter((entry) => entry.primary), published, groups, shownSince, nextRelease };
}

/** `previous` (which holds at `now`) with the groups of `changedSlugs` built again from `versions`. */
function updatedCatalog(previous: Catalog, versions: VersionsBySlug, changedSlugs: ReadonlySet<string>, now: number): Catalog {
  const { site, blog } = previous;
  const groups = new Map(previous.groups);
  const removed: CatalogEntry[] = [];
  const added: CatalogEntry[] = [];
  for (const slug of changedSlugs) {
    const before = groups.get(slug);
    const sources = versions.get(slug);
    if (before && sources && sameVersions(before.sources, sources)) continue;
    if (before) removed.push(...before.versions.values());
    if (!sources) {
      groups.delete(slug);
      continue;
    }
    const group = buildGroup(slug, sources, site, now);
    groups.set(slug, group);
    added.push(...group.versions.values());
  }
  const lists = patchedLists(previous, removed, added) ?? sortedLists(groups);
  let nextRelease = Infinity;
  for (const group of groups.values()) nextRelease = Math.min(nextRelease, group.nextRelease);
  // Newest first: the first published version has the latest date of all.
  return { site, blog, ...lists, groups, shownSince: lists.published[0]?.post.date.time ?? -Infinity, nextRelease };
}

/** Every published version of `groups`, sorted, and the primary ones. */
function sortedLists(groups: ReadonlyMap<string, SlugGroup>): { published: CatalogEntry[]; primaries: CatalogEntry[] } {
  const published: CatalogEntry[] = [];
  for (const group of groups.values()) for (const entry of group.versions.values()) published.push(entry);
  published.sort(compareEntries);
  return { published, primaries: published.filter((entry) => entry.primary) };
}

/** Past this many entries out and in, sorting the lists whole costs less than placing each (a copy per entry). */
const MOST_PATCHED = 256;

/**
 * The previous catalog's lists without `removed` and with `added`, each placed by binary search: after an edit,
 * filtering and sorting 100,000 entries again took some 0.3 s. Null when an entry is not where it should be, or
 * there are too many to place.
 */
function patchedLists(previous: Catalog, removed: readonly CatalogEntry[], added: readonly CatalogEntry[]): { published: CatalogEntry[]; primaries: CatalogEntry[] } | null {
  if (removed.length + added.length > MOST_PATCHED) return null;
  const published = patched(previous.published, removed, added);
  const primaries = published && patched(previous.primaries, removed.filter((entry) => entry.primary), added.filter((entry) => entry.primary));
  return published && primaries ? { published, primaries } : null;
}

function patched(list: readonly CatalogEntry[], removed: readonly CatalogEntry[], added: readonly CatalogEntry[]): CatalogEntry[] | null {
  const result = list.slice();
  for (const entry of removed) {
    const at = firstNotBefore(result, entry);
    if (result[at] !== entry) return null;
    result.splice(at, 1);
  }
  for (const entry of added) result.splice(firstNotBefore(result, entry), 0, entry);
  return result;
}

/** The first position of sorted `list` whose entry does not come before `entry`. */
function firstNotBefore(list: readonly CatalogEntry[], entry: CatalogEntry): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEntries(list[middle]!, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sameVersions(a: readonly PostVersion[], b: readonly PostVersion[]): boolean {
  return a === b || (a.length === b.length && a.every((post, index) => post === b[index]));
}

/** The drafts of most slugs: none. */
const NO_DRAFTS: ReadonlySet<string> = new Set();

function buildGroup(slug: string, versions: readonly PostVersion[], site: SiteConfig, now: number): SlugGroup {
  // One pass sorts the versions by what the visibility rule says of them now.
  const live: PostVersion[] = [];
  let drafts = NO_DRAFTS;
  let shownSince = -Infinity;
  let nextRelease = Infinity;
  for (const post of versions) {
    const visibility = visibilityOf(post, now);
    if (visibility === 'published') {
      live.push(post);
      shownSince = Math.max(shownSince, post.date.time);
    } else if (visibility === 'scheduled') nextRelease = Math.min(nextRelease, post.date.time);
    else drafts = new Set([...drafts, languageKey(post.lang)]);
  }
  if (live.length > 1) live.sort((a, b) => compareText(languageKey(a.lang), languageKey(b.lang)));
  const primaryPost = choosePrimary(live, site.language);
  const slugUrl = `/api/blog/posts/${encodeURIComponent(slug)}`;
  const urlOf = (post: PostVersion) => (post === primaryPost ? slugUrl : `${slugUrl}?lang=${encodeURIComponent(post.lang)}`);
  const group: SlugGroup = { sources: versions, primary: null, versions: new Map(), drafts, allLanguages: null, shownSince, nextRelease };
  for (const post of live) {
    const isPrimary = post === primaryPost;
    // The other published languages, at the URLs that serve them with `?lang=` (the primary one's too).
    const others: Record<string, string> = {};
    for (const other of live) if (other !== post) others[other.lang] = `${slugUrl}?lang=${encodeURIComponent(other.lang)}`;
    const entry: CatalogEntry = {
      post,
      primary: isPrimary,
      tagKeys: post.tags.map(foldCase),
      author: post.author ?? (site.author || null),
      fediverseCreator: post.fediverseCreator ?? site.fediverse_creator ?? null,
      translations: others,
      siblings: live,
      url: urlOf(post),
    };
    group.versions.set(languageKey(post.lang), entry);
    if (isPrimary) group.primary = entry;
    if (post.allLangs && !group.allLanguages) group.allLanguages = entry;
  }
  if (group.primary?.post.allLangs) group.allLanguages = group.primary;
  return group;
}

/**
 * The version in site.language, else the one whose file name has no language suffix, else the smallest
 * language code. Only published versions compete: a draft or scheduled translation never hides a published one.
 */
function choosePrimary(live: PostVersion[], siteLanguage: string): PostVersion | null {
  const siteKey = languageKey(siteLanguage);
  return live.find((post) => languageKey(post.lang) === siteKey) ?? live.find((post) => !post.hasLanguageSuffix) ?? live[0] ?? null;
}

export type PostLookup = { kind: 'found'; entry: CatalogEntry } | { kind: 'draft' } | { kind: 'not_found' };

/**
 * `/posts/{slug}` with an optional `lang` (docs/blog.md "Translations", "HTTP details" for the 404s). A
 * scheduled version does not exist yet: it is not_found, never `draft`, so its existence is not revealed.
 */
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
