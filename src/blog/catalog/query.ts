// GET /posts: reading the query (docs/blog.md "/posts parameters": page >= 1, limit 1..100, else
// invalid_query) and running it over the catalog: language, tag and text filters, newest first, one page.
import { languageKey } from '../content/language.js';
import { foldCase } from '../text/fold-case.js';
import { compareEntries, type Catalog, type CatalogEntry } from './catalog.js';
import { containsEveryTerm, scanInSlices } from './plain-search.js';
import { findPositions, type CandidateRanks, type Searchable, type SearchIndex } from './search-index.js';
import { searchTerms } from './search.js';
import { stepClock } from './step-clock.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PostsQuery {
  /** Language key (lower case); undefined lists primary versions. */
  lang: string | undefined;
  /** Folded tag. */
  tag: string | undefined;
  /** Folded search terms; empty when there is no `q`. */
  terms: string[];
  page: number;
  limit: number;
}

export type QueryParseResult = { ok: true; query: PostsQuery } | { ok: false; message: string };

export interface PostsPage {
  page: number;
  page_size: number;
  total: number;
  has_next: boolean;
  has_prev: boolean;
  entries: CatalogEntry[];
}

/**
 * Reads `lang`, `tag`, `q`, `page` and `limit` from a parsed query string. Empty `lang`, `tag` and `q` mean
 * "no filter"; other parameters are ignored (cache-busting parameters are common).
 */
export function parsePostsQuery(raw: Record<string, unknown>): QueryParseResult {
  const values: Record<string, string | undefined> = {};
  for (const name of ['lang', 'tag', 'q', 'page', 'limit']) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { ok: false, message: `${name} must be given at most once` };
    values[name] = value;
  }
  const page = parseWholeNumber(values.page, 1);
  if (page === null || page < 1) return { ok: false, message: 'page must be a whole number of at least 1' };
  const limit = parseWholeNumber(values.limit, DEFAULT_PAGE_SIZE);
  if (limit === null || limit < 1 || limit > MAX_PAGE_SIZE) {
    return { ok: false, message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}` };
  }
  const lang = values.lang?.trim();
  const tag = values.tag?.trim();
  return {
    ok: true,
    query: {
      lang: lang ? languageKey(lang) : undefined,
      tag: tag ? foldCase(tag) : undefined,
      terms: values.q === undefined ? [] : searchTerms(values.q),
      page,
      limit,
    },
  };
}

/** Digits only ("1.5", "-1", "abc", "" and "+2" are not page numbers); `fallback` when absent. */
function parseWholeNumber(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  if (!/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/** A stable key for equal queries, for the response cache. */
export function queryKey(query: PostsQuery): string {
  return JSON.stringify([query.lang ?? null, query.tag ?? null, query.terms, query.page, query.limit]);
}

/**
 * Where the index's posts are in `candidates`, kept per candidate list: a snapshot asks with the same few lists
 * (the primaries, one per language) for its lifetime.
 */
function candidateRanks(index: SearchIndex, candidates: readonly CatalogEntry[]): CandidateRanks {
  let known = index.memo.get(candidates);
  if (!known) {
    known = { ranks: new Int32Array(index.posts.length).fill(-1), unindexed: [] };
    for (let rank = 0; rank < candidates.length; rank += 1) {
      const position = index.positionOf.get(candidates[rank]!.post);
      if (position === undefined) known.unindexed.push(rank);
      else known.ranks[position] = rank;
    }
    index.memo.set(candidates, known);
  }
  return known;
}

/**
 * How many of `candidates` `index` does not hold: none for the index of their own catalog; after an edit, the
 * index of the catalog before lacks the edited posts, and can answer while the new one is built (selectPage).
 */
export function unindexedCount(index: SearchIndex, candidates: readonly CatalogEntry[]): number {
  return candidateRanks(index, candidates).unindexed.length;
}

/** Whether `query` is one of the unfiltered default pages that are prepared ahead. */
export function isDefaultListing(query: PostsQuery): boolean {
  return query.lang === undefined && query.tag === undefined && query.terms.length === 0 && query.limit === DEFAULT_PAGE_SIZE;
}

/** The versions listed for `lang`: each slug's version in that language, else its all_langs version. */
export function listForLanguage(catalog: Catalog, lang: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const group of catalog.groups.values()) {
    const entry = group.versions.get(lang) ?? group.allLanguages;
    if (entry) entries.push(entry);
  }
  return entries.sort(compareEntries);
}

/**
 * Filters `candidates` (already ordered) by tag and terms and cuts out the requested page. Terms are looked up
 * in `index`; candidates it does not hold (it is an earlier catalog's, while the index of theirs is built) are
 * each asked `matches` (whether the post holds query.terms). Without an index every candidate is scanned, with
 * the same result: selectPageInSlices does that scan without holding up other requests.
 */
export function selectPage(
  candidates: readonly CatalogEntry[],
  query: PostsQuery,
  index: SearchIndex | null,
  matches: (post: Searchable) => boolean = (post) => containsEveryTerm(post, query.terms),
): PostsPage {
  const byTag = tagFilter(query);
  let filtered: readonly CatalogEntry[] = candidates;
  if (query.terms.length > 0 && index === null) {
    filtered = candidates.filter((entry) => byTag(entry) && containsEveryTerm(entry.post, query.terms));
  } else if (query.terms.length > 0) {
    // Only the posts found are looked at: a rare term costs its few hits, not a pass over every candidate.
    const { ranks: rankOf, unindexed } = candidateRanks(index!, candidates);
    const ranks: number[] = [];
    for (const position of findPositions(index!, query.terms)) if (rankOf[position]! >= 0) ranks.push(rankOf[position]!);
    for (const rank of unindexed) if (matches(candidates[rank]!.post)) ranks.push(rank);
    filtered = ranks.sort((a, b) => a - b).map((rank) => candidates[rank]!).filter(byTag);
  } else if (query.tag !== undefined) {
    filtered = candidates.filter(byTag);
  }
  return cutPage(filtered, query);
}

/** How a scan before the index judges the posts, for one query. */
export interface ScanMatcher {
  /** Whether a post holds every term of the query: by its words (search-index.ts createTermMatcher), or its text. */
  matches(post: Searchable): boolean;
  /**
   * While true the scan looks at no post and waits: the words file is being taken in (after which posts are judged
   * by their words, a hundred times faster than by their text), or the index is near (every post's words known).
   */
  held?(): boolean;
}

/** How selectPageInSlices reads the posts and lets other work run. */
export interface SliceOptions extends ScanMatcher {
  /** Lets other requests run (the next event-loop turn). */
  pause(): Promise<unknown>;
  /** The index of the candidates' catalog once it is ready: the scan stops and the index answers. */
  indexNow(): SearchIndex | null;
  /** Milliseconds of scanning between two pauses (STEP_MS by default, as the index build). */
  stepMs?: number;
}

/**
 * selectPage for a `q` query while the index is not ready: the candidates are scanned a slice at a time, pausing
 * in between (a scan reads every post's text, seconds at 100,000 posts), and the index answers instead as soon
 * as it is ready. The page is the one selectPage gives.
 */
export async function selectPageInSlices(candidates: readonly CatalogEntry[], query: PostsQuery, options: SliceOptions): Promise<PostsPage> {
  const byTag = tagFilter(query);
  const found = await scanInSlices(candidates, (entry) => byTag(entry) && options.matches(entry.post), {
    pause: options.pause,
    stop: () => options.indexNow() !== null,
    held: options.held,
    due: stepClock(options.stepMs),
  });
  return found === null ? selectPage(candidates, query, options.indexNow()) : cutPage(found, query);
}

function tagFilter(query: PostsQuery): (entry: CatalogEntry) => boolean {
  return (entry) => query.tag === undefined || entry.tagKeys.includes(query.tag);
}

/** The requested page of the filtered entries. */
function cutPage(filtered: readonly CatalogEntry[], query: PostsQuery): PostsPage {
  const start = (query.page - 1) * query.limit;
  return {
    page: query.page,
    page_size: query.limit,
    total: filtered.length,
    has_next: start + query.limit < filtered.length,
    has_prev: query.page > 1,
    entries: filtered.slice(start, start + query.limit),
  };
}
