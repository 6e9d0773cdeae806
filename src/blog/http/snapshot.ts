// Every answer of one content version, computed once: /site and the first /posts page when the snapshot is
// built; /tags, the feeds, the sitemap, other default pages and each post's detail on first request (a sitemap
// of 100,000 posts, or the feeds' 20 rendered bodies, would delay every start and every edit for answers a
// reader may not ask for before the next edit); other /posts queries on first use, kept in a bounded LRU.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';
import { createDetail, createSummary } from '../catalog/summary.js';
import { isDefaultListing, listForLanguage, queryKey, selectPage, unindexedCount, DEFAULT_PAGE_SIZE, MOST_UNINDEXED, type PostsPage, type PostsQuery } from '../catalog/query.js';
import { containsEveryTerm } from '../catalog/plain-search.js';
import { stepClock } from '../catalog/step-clock.js';
import type { Searchable, SearchIndex } from '../catalog/search-index.js';
import { countTags } from '../catalog/tags.js';
import { createJsonFeed } from '../feeds/json-feed.js';
import { FEED_LENGTH, renderRss } from '../feeds/rss.js';
import { renderSitemap } from '../feeds/sitemap.js';
import { mediaBaseUrl } from '../feeds/public-url.js';
import { languageKey } from '../content/language.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { createLru, type Lru } from './lru.js';
import { contentTypes, type PreparedResponse, type ResponseFactory } from './prepared-response.js';

/** Distinct /posts queries kept per content version. */
const QUERY_CACHE_SIZE = 1000;

/** Post details kept, across content versions: the most read ones, not every post a crawler ever asked for. */
const DETAIL_CACHE_SIZE = 1000;

export interface BlogSnapshot {
  catalog: Catalog;
  site: PreparedResponse;
  tags: PreparedResponse;
  rss: PreparedResponse;
  jsonFeed: PreparedResponse;
  sitemap: PreparedResponse;
  health: PreparedResponse;
  /** The detail answer of a published version. */
  detail(entry: CatalogEntry): PreparedResponse;
  /** The rendered body of a published version, as in its detail and the feeds. */
  html(entry: CatalogEntry): string;
  /**
   * The answer to a valid /posts query; a promise for a `q` query asked before the index of this content is
   * ready, which waits for it: every answer is complete.
   */
  posts(query: PostsQuery): PreparedResponse | Promise<PreparedResponse>;
  /**
   * Serialises every summary ahead of requests, a few milliseconds per event-loop turn, newest first; stops early
   * when `stop()` says so (a newer snapshot or shutdown). `pause` waits for the next turn (setImmediate by default).
   */
  warmUp(stop: () => boolean, pause?: () => Promise<unknown>): Promise<void>;
}

/**
 * Serialised pieces kept across snapshots. The catalog reuses the entries of unchanged slugs, so an entry
 * object identifies content that has not changed since it was serialised.
 */
export interface SnapshotMemo {
  summaries: WeakMap<CatalogEntry, string>;
  /** Bounded: a detail holds the body and its HTML, which 100,000 posts would not fit in memory. */
  details: Lru<CatalogEntry, PreparedResponse>;
  sitemapUrls: WeakMap<CatalogEntry, string>;
}

export interface SnapshotTools {
  respond: ResponseFactory;
  /** Markdown body -> HTML; relative links to files beside the post are made absolute on `mediaBase`. */
  render(body: string, mediaBase: string | null, rawHtml: boolean): string;
  memo: SnapshotMemo;
  /** Headers every post detail answer carries besides its own (the webmention endpoint's Link, docs/comments.md). */
  detailHeaders?: Readonly<Record<string, string>>;
  /** The `q` index of a catalog once it is built (catalog/search-indexer.ts); null meanwhile, or always when absent. */
  searchIndexOf?: (catalog: Catalog) => SearchIndex | null;
  /** The index built last, of an earlier catalog while this one's is built (catalog/search-indexer.ts). */
  latestSearchIndex?: () => SearchIndex | null;
  /** For one `q` query, whether a post the index does not hold holds every term (containsEveryTerm by default). */
  matcherFor?: (terms: readonly string[]) => (post: Searchable) => boolean;
  /** Settles once the `q` index of a catalog is built, or no build is coming (catalog/search-indexer.ts whenIndexed). */
  whenIndexed?: (catalog: Catalog) => Promise<void>;
}

export function createSnapshotMemo(): SnapshotMemo {
  return { summaries: new WeakMap(), details: createLru(DETAIL_CACHE_SIZE), sitemapUrls: new WeakMap() };
}

/** Prepares the answers for `catalog`; `buildTime` dates an empty RSS feed. */
export function buildSnapshot(catalog: Catalog, tools: SnapshotTools, buildTime: Date): BlogSnapshot {
  const { respond, memo } = tools;
  const summaryOf = (entry: CatalogEntry): string => {
    let summary = memo.summaries.get(entry);
    if (summary === undefined) memo.summaries.set(entry, (summary = JSON.stringify(createSummary(entry))));
    return summary;
  };

  // One rendering of a feed post serves its detail's html and both feeds, so all three carry the same absolute
  // media URLs; it is kept for the snapshot's lifetime once made.
  const renderEntry = (entry: CatalogEntry, body = entry.post.body) => tools.render(body, mediaBaseUrl(catalog, entry), entry.post.rawHtml);
  const inFeeds = new Set(catalog.primaries.slice(0, FEED_LENGTH));
  const feedHtml = new Map<CatalogEntry, string>();
  const htmlOf = (entry: CatalogEntry, body?: string) => {
    let rendered = feedHtml.get(entry);
    if (rendered === undefined) {
      rendered = renderEntry(entry, body);
      if (inFeeds.has(entry)) feedHtml.set(entry, rendered);
    }
    return rendered;
  };
  const html = (entry: CatalogEntry) => htmlOf(entry);

  const renderPage = (page: PostsPage): PreparedResponse => {
    const head = JSON.stringify({ page: page.page, page_size: page.page_size, total: page.total, has_next: page.has_next, has_prev: page.has_prev });
    const body = `${head.slice(0, -1)},"posts":[${page.entries.map(summaryOf).join(',')}]}`;
    return respond.content(body, contentTypes.json);
  };

  const knownLanguages = new Set(catalog.published.map((entry) => languageKey(entry.post.lang)));
  const languageLists = new Map<string, CatalogEntry[]>();
  const candidatesFor = (lang: string | undefined): CatalogEntry[] => {
    if (lang === undefined) return catalog.primaries;
    // Every language without posts of its own lists the same all_langs posts: one list serves them all.
    const key = knownLanguages.has(lang) ? lang : '';
    let list = languageLists.get(key);
    if (!list) languageLists.set(key, (list = listForLanguage(catalog, lang)));
    return list;
  };

  // Default pages (no filter, default limit) are kept for the snapshot's lifetime; the rest share an LRU.
  const pageCount = Math.max(1, Math.ceil(catalog.primaries.length / DEFAULT_PAGE_SIZE));
  const defaultPages = new Map<number, PreparedResponse>();
  const cache = createLru<string, PreparedResponse>(QUERY_CACHE_SIZE);
  // Queries waiting for the index, by query key: the same query asked again meanwhile waits with them.
  const waiting = new Map<string, Promise<PreparedResponse>>();
  const indexNow = () => tools.searchIndexOf?.(catalog) ?? null;
  const matcherFor = tools.matcherFor ?? ((terms): ((post: Searchable) => boolean) => (post) => containsEveryTerm(post, terms));
  // The index `q` is answered from: this catalog's once built; meanwhile (after an edit, seconds at 100,000
  // posts) the one built last, when it lacks few of the candidates (the posts the edit made), which are read one
  // by one; else none.
  const searchIndexFor = (candidates: readonly CatalogEntry[]): SearchIndex | null => {
    const own = indexNow();
    if (own) return own;
    const latest = tools.latestSearchIndex?.() ?? null;
    return latest && unindexedCount(latest, candidates) <= MOST_UNINDEXED ? latest : null;
  };
  const answer = (query: PostsQuery, key: string, isDefault: boolean, candidates: readonly CatalogEntry[], index: SearchIndex | null): PreparedResponse => {
    const response = renderPage(selectPage(candidates, query, index, matcherFor(query.terms)));
    if (isDefault) defaultPages.set(query.page, response);
    else cache.set(key, response);
    return response;
  };
  const posts = (query: PostsQuery): PreparedResponse | Promise<PreparedResponse> => {
    const isDefault = isDefaultListing(query) && query.page <= pageCount;
    const key = isDefault ? '' : queryKey(query);
    const response = isDefault ? defaultPages.get(query.page) : cache.get(key);
    if (response) return response;
    const candidates = candidatesFor(query.lang);
    const index = query.terms.length > 0 ? searchIndexFor(candidates) : null;
    if (query.terms.length === 0 || index !== null || !tools.whenIndexed) return answer(query, key, isDefault, candidates, index);
    // Before the index is ready the query waits for it: the first answer takes as long as the build at most, and
    // is complete. Without an index then (none is being built), every candidate is looked at.
    let waited = waiting.get(key);
    if (!waited) {
      waited = tools.whenIndexed(catalog).then(() => answer(query, key, isDefault, candidates, searchIndexFor(candidates)));
      const forget = () => void waiting.delete(key);
      waited.then(forget, forget);
      waiting.set(key, waited);
    }
    return waited;
  };
  posts({ lang: undefined, tag: undefined, terms: [], page: 1, limit: DEFAULT_PAGE_SIZE });

  const tags = once(() => respond.content(JSON.stringify({ tags: countTags(catalog.primaries) }), contentTypes.json));
  const rss = once(() => respond.content(renderRss(catalog, html, buildTime), contentTypes.rss));
  const jsonFeed = once(() => respond.content(JSON.stringify(createJsonFeed(catalog, html)), contentTypes.jsonFeed));
  const sitemap = once(() => respond.content(renderSitemap(catalog, memo.sitemapUrls), contentTypes.xml));
  const { site } = catalog;
  return {
    catalog,
    site: respond.content(
      JSON.stringify({
        title: site.title,
        description: site.description,
        base_url: site.base_url,
        language: site.language,
        author: site.author,
        fediverse_creator: site.fediverse_creator ?? null,
      }),
      contentTypes.json,
    ),
    get tags() {
      return tags();
    },
    get rss() {
      return rss();
    },
    get jsonFeed() {
      return jsonFeed();
    },
    get sitemap() {
      return sitemap();
    },
    health: respond.uncached(200, { status: 'ok', posts: catalog.published.length }),
    detail(entry) {
      let response = memo.details.get(entry);
      if (!response) {
        // A post's body is read from its file (content/body-reader.ts): once for both fields.
        const body = entry.post.body;
        response = respond.content(JSON.stringify(createDetail(entry, htmlOf(entry, body), body)), contentTypes.json, tools.detailHeaders);
        memo.details.set(entry, response);
      }
      return response;
    },
    html,
    posts,
    async warmUp(stop, pause = () => yieldToEventLoop()) {
      // Slices cut by time, as the q index build's (catalog/step-clock.ts): a summary whose excerpt is derived from
      // the Markdown costs a hundred times one the load cache kept, and a request waits for one slice at most.
      const due = stepClock();
      for (const entry of catalog.published) {
        if (stop()) return;
        summaryOf(entry);
        if (due()) await pause();
      }
    },
  };
}

/** `make()` on the first call, its value on every later one. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
