// Every answer of one content version, prepared once: /site, /tags, the feeds, the sitemap, each post's
// detail and the default /posts pages up front; other /posts queries on first use, kept in a bounded LRU.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';
import { createDetail } from '../catalog/summary.js';
import { isDefaultListing, listForLanguage, queryKey, selectPage, DEFAULT_PAGE_SIZE, type PostsPage, type PostsQuery } from '../catalog/query.js';
import { countTags } from '../catalog/tags.js';
import { createJsonFeed } from '../feeds/json-feed.js';
import { renderRss } from '../feeds/rss.js';
import { renderSitemap } from '../feeds/sitemap.js';
import { languageKey } from '../content/language.js';
import type { PostVersion } from '../content/post.js';
import { createLru } from './lru.js';
import { contentTypes, type PreparedResponse, type ResponseFactory } from './prepared-response.js';

/** Distinct /posts queries kept per content version. */
export const QUERY_CACHE_SIZE = 1000;

export interface BlogSnapshot {
  catalog: Catalog;
  site: PreparedResponse;
  tags: PreparedResponse;
  rss: PreparedResponse;
  jsonFeed: PreparedResponse;
  sitemap: PreparedResponse;
  health: PreparedResponse;
  details: Map<CatalogEntry, PreparedResponse>;
  /** The answer to a valid /posts query. */
  posts(query: PostsQuery): PreparedResponse;
}

/**
 * Details carried over from the previous snapshot: a post whose file did not change keeps its PostVersion
 * object, so its detail is reused when its summary (translations, primary) is unchanged too.
 */
export type DetailReuse = WeakMap<PostVersion, { summary: string; response: PreparedResponse }>;

/** Prepares the answers for `catalog`; `buildTime` dates an empty RSS feed. */
export function buildSnapshot(catalog: Catalog, respond: ResponseFactory, reuse: DetailReuse, buildTime: Date): BlogSnapshot {
  const summaries = new Map<CatalogEntry, string>();
  const details = new Map<CatalogEntry, PreparedResponse>();
  for (const entry of catalog.published) {
    const summary = JSON.stringify(entry.summary);
    summaries.set(entry, summary);
    const previous = reuse.get(entry.post);
    if (previous && previous.summary === summary) {
      details.set(entry, previous.response);
      continue;
    }
    const response = respond.content(JSON.stringify(createDetail(entry.summary, entry.post)), contentTypes.json);
    reuse.set(entry.post, { summary, response });
    details.set(entry, response);
  }

  const renderPage = (page: PostsPage): PreparedResponse => {
    const head = JSON.stringify({ page: page.page, page_size: page.page_size, total: page.total, has_next: page.has_next, has_prev: page.has_prev });
    const posts = page.entries.map((entry) => summaries.get(entry)!).join(',');
    return respond.content(`${head.slice(0, -1)},"posts":[${posts}]}`, contentTypes.json);
  };

  const pageCount = Math.max(1, Math.ceil(catalog.primaries.length / DEFAULT_PAGE_SIZE));
  const defaultPages = Array.from({ length: pageCount }, (_, index) =>
    renderPage(selectPage(catalog.primaries, { lang: undefined, tag: undefined, terms: [], page: index + 1, limit: DEFAULT_PAGE_SIZE })),
  );

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

  const cache = createLru<string, PreparedResponse>(QUERY_CACHE_SIZE);
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
    tags: respond.content(JSON.stringify({ tags: countTags(catalog.primaries) }), contentTypes.json),
    rss: respond.content(renderRss(catalog, buildTime), contentTypes.rss),
    jsonFeed: respond.content(JSON.stringify(createJsonFeed(catalog)), contentTypes.jsonFeed),
    sitemap: respond.content(renderSitemap(catalog), contentTypes.xml),
    health: respond.uncached(200, { status: 'ok', posts: catalog.published.length }),
    details,
    posts(query) {
      if (isDefaultListing(query) && query.page <= defaultPages.length) return defaultPages[query.page - 1]!;
      const key = queryKey(query);
      let response = cache.get(key);
      if (!response) {
        response = renderPage(selectPage(candidatesFor(query.lang), query));
        cache.set(key, response);
      }
      return response;
    },
  };
}
