// The blog's Fastify routes (blog-api.md "Endpoints", contract section 4). GET and HEAD pick a prepared
// answer of the current snapshot (see resolve.ts); OPTIONS is the CORS preflight; other methods get 405.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesIfNoneMatch, type PreparedResponse } from './prepared-response.js';
import { ALLOWED_METHODS, type BlogResolver } from './resolve.js';
import type { BlogSnapshot } from './snapshot.js';

export interface BlogRoutesOptions {
  /** The snapshot of the content as it is now; swapped whenever the content changes. */
  current(): BlogSnapshot;
  resolver: BlogResolver;
}

const ROUTES = ['/health', '/api/blog/site', '/api/blog/tags', '/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml', '/api/blog/posts', '/api/blog/posts/*'];

/** Adds the blog's routes and CORS header to `app` (the blog's own Fastify instance). */
export function registerBlogRoutes(app: FastifyInstance, options: BlogRoutesOptions): void {
  const { current, resolver } = options;

  // Errors and 304s included, every answer of this listener carries the CORS header (contract section 4).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*');
    done();
  });
  app.register(async (scope) => {
    // No route here reads a body: accept any content type without parsing, so that a POST gets its 405.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const url of ROUTES) {
      scope.all(url, (request, reply) => {
        const method = request.method;
        if (method === 'OPTIONS') return preflight(reply);
        if (method !== 'GET' && method !== 'HEAD') return send(request, reply, resolver.methodNotAllowed);
        const path = request.url.split('?', 1)[0]!;
        const slug = (request.params as Record<string, string>)['*'];
        // The wildcard parameter is the decoded slug; resolve() wants the path with it decoded too.
        const decoded = slug === undefined ? path : `/api/blog/posts/${slug}`;
        const response = resolver.resolve(current(), decoded, request.query as Record<string, unknown>);
        return send(request, reply, response ?? resolver.notFound);
      });
    }
    // OPTIONS on any path under /api/blog is a 204 preflight (blog-api.md "OPTIONS /*"); the rest is 404.
    scope.all('/api/blog/*', (request, reply) => (request.method === 'OPTIONS' ? preflight(reply) : send(request, reply, resolver.notFound)));
    scope.all('*', (request, reply) => send(request, reply, resolver.notFound));
  });
}

function send(request: FastifyRequest, reply: FastifyReply, response: PreparedResponse): FastifyReply {
  if (response.etag !== null && matchesIfNoneMatch(request.headers['if-none-match'], response.etag)) {
    return reply.code(304).headers(response.notModifiedHeaders).send();
  }
  return reply.code(response.status).headers(response.headers).send(response.body);
}

/** The 204 answer to OPTIONS (contract section 4). */
export const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': ALLOWED_METHODS,
  'access-control-allow-headers': 'Accept, Accept-Language, Content-Type, If-None-Match, Cache-Control',
  'access-control-max-age': '86400',
};

function preflight(reply: FastifyReply): FastifyReply {
  return reply.code(204).headers(PREFLIGHT_HEADERS).send();
}
