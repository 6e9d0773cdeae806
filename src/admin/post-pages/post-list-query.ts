// What /admin/posts shows of every post file and version (docs/admin.md "Posts"): read from the query string
// (`q`, `state`, `page`), the versions that match, newest first (by date, then file), 50 a page; and the public
// page of each published version, built as the blog API builds it (src/blog/feeds/public-url.ts). Pure: no clock,
// no files.
import type { PostState, PostVersionState } from '../../blog/post-version-state.js';

/** Versions on one page of the list. */
export const POSTS_PER_PAGE = 50;

export const POST_STATES: readonly PostState[] = ['published', 'draft', 'scheduled', 'broken'];

/** A version as the list reads it: the blog's listing, with the post's tags when the listing carries them. */
export type ListedVersion = PostVersionState & { tags?: readonly string[] };

/** What the query string asks for; anything it cannot read is left at the default (all posts, the first page). */
export interface PostListQuery {
  /** Words each of which the title, the slug or a tag must hold, in any case; empty for every post. */
  q: string;
  state?: PostState;
  /** From 1, the newest. */
  page: number;
}

/** `?q=...&state=...&page=...` as a PostListQuery. */
export function readPostListQuery(query: string | URLSearchParams | undefined): PostListQuery {
  const params = query instanceof URLSearchParams ? query : new URLSearchParams(query ?? '');
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const stateText = params.get('state') ?? '';
  const state = (POST_STATES as readonly string[]).includes(stateText) ? (stateText as PostState) : undefined;
  const pageText = params.get('page') ?? '';
  const page = /^[1-9][0-9]{0,8}$/.test(pageText) ? Number(pageText) : 1;
  return { q, ...(state ? { state } : {}), page };
}

/** The list's address for `query` at `page`: only what differs from the defaults is in it. */
export function postListHref(query: Pick<PostListQuery, 'q' | 'state'>, page: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.state) params.set('state', query.state);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `/admin/posts?${text}` : '/admin/posts';
}

export interface PostListSelection<T extends ListedVersion> {
  /** The versions of the page asked for, newest first. */
  versions: T[];
  /** How many versions match the query (on every page). */
  matching: number;
  /** How many versions there are, whatever the query. */
  total: number;
  page: number;
  /** How many pages the matching versions fill (at least 1). */
  pages: number;
  hasNewer: boolean;
  hasOlder: boolean;
}

/** The versions `query` asks for: filtered by state and words, sorted newest first, cut to its page. */
export function selectPosts<T extends ListedVersion>(versions: readonly T[], query: PostListQuery, perPage = POSTS_PER_PAGE): PostListSelection<T> {
  const words = wordsOf(query.q);
  const matching = versions.filter((version) => (!query.state || version.state === query.state) && words.every((word) => holds(version, word)));
  const sorted = matching.map((version) => ({ version, time: timeOf(version.date) })).sort(newestFirst).map((entry) => entry.version);
  const pages = Math.max(1, Math.ceil(sorted.length / perPage));
  const start = (query.page - 1) * perPage;
  return {
    versions: sorted.slice(start, start + perPage),
    matching: sorted.length,
    total: versions.length,
    page: query.page,
    pages,
    hasNewer: query.page > 1,
    hasOlder: start + perPage < sorted.length,
  };
}

function newestFirst(a: { version: ListedVersion; time: number }, b: { version: ListedVersion; time: number }): number {
  if (a.time !== b.time) return b.time - a.time;
  return a.version.file < b.version.file ? -1 : a.version.file > b.version.file ? 1 : 0;
}

/** The instant of a version's date; a version without one (or with one that is no date) sorts last. */
function timeOf(date: string | undefined): number {
  const time = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
}

function fold(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

function wordsOf(q: string): string[] {
  return fold(q)
    .split(/\s+/)
    .map((word) => word.replace(/^#/, ''))
    .filter((word) => word !== '');
}

function holds(version: ListedVersion, word: string): boolean {
  return [version.title ?? '', version.slug, ...(version.tags ?? [])].some((text) => fold(text).includes(word));
}

/** What the public page of a post is built from: `[site] base_url` and language, `[blog] post_url` and `translation_url`. */
export interface PublicPostLinks {
  baseUrl: string;
  postUrl: string;
  translationUrl: string;
  siteLanguage: string;
}

/** The links of a configuration's [site] and [blog]. */
export function publicPostLinksOf(site: { base_url: string; language: string }, blog: { post_url: string; translation_url: string }): PublicPostLinks {
  return { baseUrl: site.base_url, postUrl: blog.post_url, translationUrl: blog.translation_url, siteLanguage: site.language };
}

/**
 * The public page of every published version, by file: `post_url` for the slug's primary version, `translation_url`
 * for the others, on site.base_url unless the template is a whole URL. The primary version is chosen as the catalog
 * chooses it among the published versions of a slug: the one in site.language, else the one whose file name has no
 * language, else the smallest language code.
 */
export function viewUrlsOf(versions: readonly PostVersionState[], links: PublicPostLinks): Map<string, string> {
  const bySlug = new Map<string, PostVersionState[]>();
  for (const version of versions) {
    if (version.state !== 'published') continue;
    const group = bySlug.get(version.slug) ?? [];
    group.push(version);
    bySlug.set(version.slug, group);
  }
  const urls = new Map<string, string>();
  for (const group of bySlug.values()) {
    const primary = primaryOf(group, links.siteLanguage);
    for (const version of group) urls.set(version.file, publicUrlOf(version, version === primary, links));
  }
  return urls;
}

function primaryOf(group: readonly PostVersionState[], siteLanguage: string): PostVersionState | undefined {
  const key = (language: string) => language.toLowerCase();
  return (
    group.find((version) => key(version.language) === key(siteLanguage)) ??
    group.find((version) => !hasLanguageSuffix(version)) ??
    [...group].sort((a, b) => (key(a.language) < key(b.language) ? -1 : key(a.language) > key(b.language) ? 1 : 0))[0]
  );
}

/** `hello.fr.md`, `hello/index.fr.md`: a file name that names its language. */
function hasLanguageSuffix(version: PostVersionState): boolean {
  const name = (version.file.split('/').pop() ?? '').replace(/\.[^.]*$/, '');
  return name.toLowerCase().endsWith(`.${version.language.toLowerCase()}`);
}

function publicUrlOf(version: PostVersionState, primary: boolean, links: PublicPostLinks): string {
  const path = (primary ? links.postUrl : links.translationUrl)
    .replaceAll('{slug}', encodeURIComponent(version.slug))
    .replaceAll('{lang}', encodeURIComponent(version.language));
  if (/^https?:\/\//i.test(path)) return path;
  return `${links.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
}
