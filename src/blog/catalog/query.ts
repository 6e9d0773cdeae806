// GET /posts: reading the query (docs/blog.md "/posts parameters": page >= 1, limit 1..100, else
// invalid_query) and running it over the catalog: language, tag and text filters, newest first, one page.
import { languageKey } from '../content/language.js';
import { foldCase } from '../text/fold-case.js';
import { compareEntries, type Catalog, type CatalogEntry } from './catalog.js';
import { containsEveryTerm } from './plain-search.js';
import { addBit, countBits, emptyBits, intersectInto, bitPositions, type PostBits } from './post-bits.js';
import { findMatches, positionsOf, type CandidateRanks, type Searchable, type SearchIndex } from './search-index.js';
import { searchTerms } from './search.js';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE, MAX_PAGE_SIZE, MIN_PAGE_SIZE, POSTS_QUERY_PARAMETERS, WHOLE_NUMBER } from './query-params.js';

// The parameters' bounds live in query-params.ts, which GET /openapi.json reads too.
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query-params.js';

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
  for (const name of POSTS_QUERY_PARAMETERS) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { ok: false, message: `${name} must be given at most once` };
    values[name] = value;
  }
  const page = parseWholeNumber(values.page, FIRST_PAGE);
  if (page === null || page < FIRST_PAGE) return { ok: false, message: `page must be a whole number of at least ${FIRST_PAGE}` };
  const limit = parseWholeNumber(values.limit, DEFAULT_PAGE_SIZE);
  if (limit === null || limit < MIN_PAGE_SIZE || limit > MAX_PAGE_SIZE) {
    return { ok: false, message: `limit must be a whole number from ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE}` };
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
  if (!WHOLE_NUMBER.test(value)) return null;
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
    known = { ranks: new Int32Array(index.posts.length).fill(-1), present: emptyBits(index.posts.length), ordered: true, unindexed: [] };
    let lastPosition = -1;
    const positions = positionsOf(index);
    for (let rank = 0; rank < candidates.length; rank += 1) {
      const position = positions.get(candidates[rank]!.post);
      if (position === undefined) {
        known.unindexed.push(rank);
        continue;
      }
      known.ranks[position] = rank;
      addBit(known.present, position);
      // Both are in the catalog's order (compareEntries), so this holds but for an index of another order.
      if (position < lastPosition) known.ordered = false;
      lastPosition = position;
    }
    index.memo.set(candidates, known);
  }
  return known;
}

/**
 * Candidates an earlier index may lack, each read on its own, before a `q` query is not answered from it: the index
 * of the catalog before an edit, or the one kept in data_dir after a restart with a few posts changed.
 */
export const MOST_UNINDEXED = 256;

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
 * the same result.
 */
export function selectPage(
  candidates: readonly CatalogEntry[],
  query: PostsQuery,
  index: SearchIndex | null,
  matches: (post: Searchable) => boolean = (post) => containsEveryTerm(post, query.terms),
): PostsPage {
  const byTag = tagFilter(query);
  if (query.terms.length === 0) return cutPage(query.tag === undefined ? candidates : candidates.filter(byTag), query);
  if (index === null) return cutPage(candidates.filter((entry) => byTag(entry) && containsEveryTerm(entry.post, query.terms)), query);
  // Only the posts found are looked at, as bits: a rare term costs its few hits, a common one no array of its hits.
  const known = candidateRanks(index, candidates);
  const found = intersectInto(findMatches(index, query.terms), known.present);
  // Candidates the index lacks (few: posts new since it was built), in the candidates' order.
  const extra = known.unindexed.filter((rank) => matches(candidates[rank]!.post));
  if (query.tag === undefined && known.ordered) {
    // Newest first is the index's order: the total is counted, and only the page's posts are walked to.
    const total = countBits(found) + extra.length;
    const start = (query.page - 1) * query.limit;
    const ranks = start >= total ? [] : mergedRanks(found, known.ranks, extra, start, query.limit);
    return pageOf(ranks.map((rank) => candidates[rank]!), total, query);
  }
  const ranks = mergedRanks(found, known.ranks, extra, 0, Infinity);
  if (!known.ordered) ranks.sort((a, b) => a - b);
  return cutPage(ranks.map((rank) => candidates[rank]!).filter(byTag), query);
}

/**
 * The candidates' places of the posts in `found` (whose places grow with their positions, else any order) and of
 * `extra` (ascending), merged in ascending order, from the `skip`-th on, at most `limit` of them.
 */
function mergedRanks(found: PostBits, rankOf: Int32Array, extra: readonly number[], skip: number, limit: number): number[] {
  if (extra.length === 0) return bitPositions(found, skip, limit).map((position) => rankOf[position]!);
  const indexed = bitPositions(found, 0, skip + limit).map((position) => rankOf[position]!);
  const merged: number[] = [];
  for (let a = 0, b = 0; merged.length < skip + limit && (a < indexed.length || b < extra.length); ) {
    merged.push(b === extra.length || (a < indexed.length && indexed[a]! < extra[b]!) ? indexed[a++]! : extra[b++]!);
  }
  return merged.slice(skip);
}

function tagFilter(query: PostsQuery): (entry: CatalogEntry) => boolean {
  return (entry) => query.tag === undefined || entry.tagKeys.includes(query.tag);
}

/** The requested page of the filtered entries. */
function cutPage(filtered: readonly CatalogEntry[], query: PostsQuery): PostsPage {
  const start = (query.page - 1) * query.limit;
  return pageOf(filtered.slice(start, start + query.limit), filtered.length, query);
}

/** The page of `total` entries whose requested part is `entries`. */
function pageOf(entries: CatalogEntry[], total: number, query: PostsQuery): PostsPage {
  const start = (query.page - 1) * query.limit;
  return { page: query.page, page_size: query.limit, total, has_next: start + query.limit < total, has_prev: query.page > 1, entries };
}
