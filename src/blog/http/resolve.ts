// Which prepared answer a GET or HEAD gets (blog-api.md "Endpoints", contract section 4). Shared by the
// Fastify routes and the socket-level fast path, so that both answer byte for byte the same.
import { findPost } from '../catalog/catalog.js';
import { parsePostsQuery } from '../catalog/query.js';
import type { PreparedResponse, ResponseFactory } from './prepared-response.js';
import type { BlogSnapshot } from './snapshot.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export interface BlogResolver {
  /** The answer to GET `path` (no query string) with `query` (parsed), or null when no route has that path. */
  resolve(snapshot: BlogSnapshot, path: string, query: Record<string, unknown>): PreparedResponse | null;
  /** Whether `path` is one of the routes (for 405 versus 404). */
  isRoute(path: string): boolean;
  notFound: PreparedResponse;
  methodNotAllowed: PreparedResponse;
}

const POSTS = '/api/blog/posts';
const POST_PREFIX = '/api/blog/posts/';
const fixed: Record<string, (snapshot: BlogSnapshot) => PreparedResponse> = {
  '/health': (snapshot) => snapshot.health,
  '/api/blog/site': (snapshot) => snapshot.site,
  '/api/blog/tags': (snapshot) => snapshot.tags,
  '/api/blog/feed.xml': (snapshot) => snapshot.rss,
  '/api/blog/feed.json': (snapshot) => snapshot.jsonFeed,
  '/api/blog/sitemap.xml': (snapshot) => snapshot.sitemap,
};

export function createBlogResolver(respond: ResponseFactory): BlogResolver {
  const notFound = respond.uncached(404, { error: 'not_found' });
  const draft = respond.uncached(404, { error: 'draft' });
  const methodNotAllowed = respond.uncached(405, { error: 'method_not_allowed' }, { allow: ALLOWED_METHODS });
  const invalidQueries = new Map<string, PreparedResponse>();
  const invalidQuery = (message: string): PreparedResponse => {
    let response = invalidQueries.get(message);
    if (!response) invalidQueries.set(message, (response = respond.uncached(400, { error: 'invalid_query', message })));
    return response;
  };

  return {
    notFound,
    methodNotAllowed,
    isRoute: (path) => path in fixed || path === POSTS || path.startsWith(POST_PREFIX),
    resolve(snapshot, path, query) {
      const pick = fixed[path];
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
