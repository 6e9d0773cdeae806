// The form routes read request bodies themselves, in the order contract section 3 fixes (origin, rate
// limit, body size, body syntax). Fastify would otherwise parse first, and answer a malformed Content-Type
// with 415 before any route could check the origin or take a rate-limit token.
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content-Type the client sent; Fastify itself sees a neutral one. */
    bodyContentType: string | undefined;
  }
}

/** A content type Fastify accepts as valid; our catch-all parser then leaves the body unread. */
const NEUTRAL_CONTENT_TYPE = 'application/octet-stream';

/** Hands every body in `app` to the routes unread; they find the original type in `request.bodyContentType`. */
export function leaveBodiesToRoutes(app: FastifyInstance): void {
  app.decorateRequest('bodyContentType', undefined);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.addHook('onRequest', async (request) => {
    request.bodyContentType = request.headers['content-type'];
    request.raw.headers['content-type'] = NEUTRAL_CONTENT_TYPE;
  });
}
