// A response computed once and sent many times: its bytes, ETag and headers are fixed when it is built
// (the blog is measured against a static file server; contract section 4 for the headers).
import { createHash } from 'node:crypto';

export interface PreparedResponse {
  status: number;
  body: Buffer;
  /** Headers of the full answer (content-length included). */
  headers: Readonly<Record<string, string>>;
  /** Strong ETag, or null for answers that carry none (errors). */
  etag: string | null;
  /** Headers of the 304 answer to a matching If-None-Match. */
  notModifiedHeaders: Readonly<Record<string, string>>;
  /** The same two header sets as flat [name, value, ...] lists, for ServerResponse.writeHead. */
  rawHeaders: readonly string[];
  rawNotModifiedHeaders: readonly string[];
}

/** Every answer of the blog, errors and 304s included, may be read by any page (contract section 4). */
const CORS_HEADERS = { 'access-control-allow-origin': '*' };

function prepare(status: number, body: Buffer, etag: string | null, headers: Record<string, string>, notModifiedHeaders: Record<string, string>): PreparedResponse {
  const all = { ...CORS_HEADERS, ...headers };
  const allNotModified = { ...CORS_HEADERS, ...notModifiedHeaders };
  return {
    status,
    body,
    etag,
    headers: all,
    notModifiedHeaders: allNotModified,
    rawHeaders: Object.entries(all).flat(),
    rawNotModifiedHeaders: Object.entries(allNotModified).flat(),
  };
}

export const contentTypes = {
  json: 'application/json; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  jsonFeed: 'application/feed+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

/** Builds responses that share one Cache-Control value (`public, max-age=<cache_max_age>`). */
export interface ResponseFactory {
  /** A cacheable 200 answer with an ETag. */
  content(body: string, contentType: string): PreparedResponse;
  /** A JSON answer without ETag or shared caching (errors, /health), with any `extraHeaders`. */
  uncached(status: number, value: unknown, extraHeaders?: Record<string, string>): PreparedResponse;
}

export function createResponseFactory(cacheMaxAge: number): ResponseFactory {
  const cacheControl = `public, max-age=${cacheMaxAge}`;
  return {
    content(text, contentType) {
      const body = Buffer.from(text, 'utf8');
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      return prepare(
        200,
        body,
        etag,
        { 'content-type': contentType, 'content-length': String(body.length), etag, 'cache-control': cacheControl },
        { etag, 'cache-control': cacheControl },
      );
    },
    uncached(status, value, extraHeaders = {}) {
      const body = Buffer.from(JSON.stringify(value), 'utf8');
      const headers = { 'content-type': contentTypes.json, 'content-length': String(body.length), 'cache-control': 'no-store', ...extraHeaders };
      return prepare(status, body, null, headers, {});
    },
  };
}

/** Whether an If-None-Match header matches `etag` (RFC 9110 section 13.1.2: weak comparison, lists, `*`). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}
