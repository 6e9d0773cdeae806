// GET and HEAD /openapi.json on each listener (docs/openapi.md): the listener's OpenAPI document, built once when
// the service starts and serialised once, sent with a strong ETag and `Cache-Control: no-cache` so that a client
// revalidates it (a 304 on a matching If-None-Match) and sees a changed configuration after a restart.
import { createHash } from 'node:crypto';
import type { Answer } from '../answer.js';
import { JSON_CONTENT_TYPE } from '../error-catalogue.js';
import type { Handler, Route } from '../route-table.js';

export const OPENAPI_PATH = '/openapi.json';

/** The route that serves `document`. */
export function createDocumentRoute(document: object): Route {
  const body = Buffer.from(JSON.stringify(document), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  // Any page may read it: a documentation viewer or a code generator runs from another origin.
  const common = ['etag', etag, 'cache-control', 'no-cache', 'access-control-allow-origin', '*'];
  const full: Answer = { status: 200, headers: ['content-type', JSON_CONTENT_TYPE, 'content-length', String(body.length), ...common], body };
  const notModified: Answer = { status: 304, headers: common };
  const handler: Handler = (request) => (matchesEtag(request.raw.headers['if-none-match'], etag) ? notModified : full);
  return { path: OPENAPI_PATH, methods: { GET: handler, HEAD: handler } };
}

/** Whether an If-None-Match header names `etag` (RFC 9110 section 13.1.2: weak comparison, lists, `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}
