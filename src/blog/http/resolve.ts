// Which prepared answer a GET or HEAD gets (docs/blog.md "What the API answers").
import { BAD_PATH_MESSAGE } from '../../http/error-catalogue.js';
import { findPost } from '../catalog/catalog.js';
import { parsePostsQuery } from '../catalog/query.js';
import type { PreparedResponse, ResponseFactory } from './prepared-response.js';
import type { BlogSnapshot } from './snapshot.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export interface BlogResolver {
  /**
   * The answer to GET `path` (no query string) with `query` (parsed), or null when no route has that path; a
   * promise while a `q` query waits for the search index (BlogSnapshot.posts).
   */
  resolve(snapshot: BlogSnapshot, path: string, query: Record<string, unknown>): PreparedResponse | Promise<PreparedResponse> | null;
  notFound: PreparedResponse;
  methodNotAllowed: PreparedResponse;
  badPath: PreparedResponse;
  internalError: PreparedResponse;
}

export const POSTS = '/api/blog/posts';
export const POST_PREFIX = '/api/blog/posts/';
/** The routes with a path of their own, and which answer of a snapshot each gives. */
export const FIXED_ROUTES: Record<string, (snapshot: BlogSnapshot) => PreparedResponse> = {
  '/health': (snapshot) => snapshot.health,
  '/api/blog/site': (snapshot) => snapshot.site,
  '/api/blog/tags': (snapshot) => snapshot.tags,
  '/api/blog/feed.xml': (snapshot) => snapshot.rss,
  '/api/blog/feed.json': (snapshot) => snapshot.jsonFeed,
  '/api/blog/sitemap.xml': (snapshot) => snapshot.sitemap,
};

export function createBlogResolver(respond: ResponseFactory): BlogResolver {
  const notFound = respond.error('not_found');
  const draft = respond.error('draft');
  const methodNotAllowed = respond.error('method_not_allowed', undefined, { allow: ALLOWED_METHODS });
  const invalidQueries = new Map<string, PreparedResponse>();
  const invalidQuery = (message: string): PreparedResponse => {
    let response = invalidQueries.get(message);
    if (!response) invalidQueries.set(message, (response = respond.error('invalid_query', message)));
    return response;
  };

  return {
    notFound,
    methodNotAllowed,
    badPath: respond.error('bad_request', BAD_PATH_MESSAGE),
    internalError: respond.error('internal_error'),
    resolve(snapshot, path, query) {
      const pick = FIXED_ROUTES[path];
      if (pick) return pick(snapshot);
      if (path === POSTS) {
        const parsed = parsePostsQuery(query);
        return parsed.ok ? snapshot.posts(parsed.query) : invalidQuery(parsed.message);
      }
      if (!path.startsWith(POST_PREFIX)) return null;
      // Only known slugs are served: "../site" or "a/b" are simply not found.
      const slug = path.slice(POST_PREFIX.length);
      const lang = query.lang;
      if (lang !== undefined && typeof lang !== 'string') return invalidQuery('lang must be given at most once');
      const found = findPost(snapshot.catalog, slug, lang?.trim() || undefined);
      if (found.kind === 'draft') return draft;
      if (found.kind === 'not_found') return notFound;
      return snapshot.detail(found.entry);
    },
  };
}
