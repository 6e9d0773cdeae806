// The HTTP face of the blog (blog-api.md "Endpoints", contract section 4). Every answer is a prepared
// response of the current snapshot; the handlers only pick one and compare the ETag.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../log.js';
import { findPost } from '../catalog/catalog.js';
import { parsePostsQuery } from '../catalog/query.js';
import { matchesIfNoneMatch, type PreparedResponse, type ResponseFactory } from './prepared-response.js';
import type { BlogSnapshot } from './snapshot.js';

export interface BlogRoutesOptions {
  /** The snapshot of the content as it is now; swapped whenever the content changes. */
  current(): BlogSnapshot;
  respond: ResponseFactory;
  logger: Logger;
}

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
const ALLOWED_REQUEST_HEADERS = 'Accept, Accept-Language, Content-Type, If-None-Match, Cache-Control';

/** Adds the blog's routes and CORS header to `app` (the blog's own Fastify instance). */
export function registerBlogRoutes(app: FastifyInstance, options: BlogRoutesOptions): void {
  const { current, respond, logger } = options;
  const notFound = respond.uncached(404, { error: 'not_found' });
  const draft = respond.uncached(404, { error: 'draft' });
  const methodNotAllowed = withHeaders(respond.uncached(405, { error: 'method_not_allowed' }), { allow: ALLOWED_METHODS });
  const internal = respond.uncached(500, { error: 'internal' });
  const invalidQueries = new Map<string, PreparedResponse>();
  const invalidQuery = (message: string): PreparedResponse => {
    let response = invalidQueries.get(message);
    if (!response) invalidQueries.set(message, (response = respond.uncached(400, { error: 'invalid_query', message })));
    return response;
  };

  // Errors and 304s included, every answer of this listener carries the CORS header (contract section 4).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*');
    done();
  });
  try {
    app.setNotFoundHandler((request, reply) => send(request, reply, notFound));
  } catch {
    // The shared HTTP factory set one already; it answers 404 {"error":"not_found"} as well.
  }

  const route = (url: string, pick: (request: FastifyRequest, snapshot: BlogSnapshot) => PreparedResponse) =>
    (scope: FastifyInstance) =>
      scope.all(url, (request, reply) => {
        const method = request.method;
        if (method === 'GET' || method === 'HEAD') return send(request, reply, pick(request, current()));
        if (method === 'OPTIONS') return preflight(reply);
        return send(request, reply, methodNotAllowed);
      });

  const routes = [
    route('/health', (_request, snapshot) => snapshot.health),
    route('/api/blog/site', (_request, snapshot) => snapshot.site),
    route('/api/blog/tags', (_request, snapshot) => snapshot.tags),
    route('/api/blog/feed.xml', (_request, snapshot) => snapshot.rss),
    route('/api/blog/feed.json', (_request, snapshot) => snapshot.jsonFeed),
    route('/api/blog/sitemap.xml', (_request, snapshot) => snapshot.sitemap),
    route('/api/blog/posts', (request, snapshot) => {
      const parsed = parsePostsQuery(request.query as Record<string, unknown>);
      return parsed.ok ? snapshot.posts(parsed.query) : invalidQuery(parsed.message);
    }),
    // A wildcard rather than `:slug`: the router limits named parameters to 100 characters. The slug is
    // looked up among known slugs only; "..%2F.." and "a/b" are simply not found.
    route('/api/blog/posts/*', (request, snapshot) => {
      const slug = (request.params as Record<string, string>)['*'] ?? '';
      const lang = (request.query as Record<string, unknown>).lang;
      if (lang !== undefined && typeof lang !== 'string') return invalidQuery('lang must be given at most once');
      const found = findPost(snapshot.catalog, slug, lang?.trim() || undefined);
      if (found.kind === 'draft') return draft;
      if (found.kind === 'not_found') return notFound;
      return snapshot.detail(found.entry);
    }),
  ];

  app.register(async (scope) => {
    // No route here reads a body: accept any content type without parsing, so that a POST gets its 405.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.setErrorHandler((error, request, reply) => {
      logger.error({ err: error, path: request.url.split('?', 1)[0] }, 'blog request failed');
      return send(request, reply, internal);
    });
    for (const add of routes) add(scope);
    // OPTIONS on any path under /api/blog is a 204 preflight (blog-api.md "OPTIONS /*"); the rest is 404.
    scope.all('/api/blog/*', (request, reply) => (request.method === 'OPTIONS' ? preflight(reply) : send(request, reply, notFound)));
    scope.all('*', (request, reply) => send(request, reply, notFound));
  });
}

function send(request: FastifyRequest, reply: FastifyReply, response: PreparedResponse): FastifyReply {
  if (response.etag !== null && matchesIfNoneMatch(request.headers['if-none-match'], response.etag)) {
    return reply.code(304).headers(response.notModifiedHeaders).send();
  }
  return reply.code(response.status).headers(response.headers).send(response.body);
}

function preflight(reply: FastifyReply): FastifyReply {
  return reply
    .code(204)
    .headers({
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': '86400',
    })
    .send();
}

function withHeaders(response: PreparedResponse, headers: Record<string, string>): PreparedResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}
