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
  /** A JSON answer without ETag or shared caching (errors, /health). */
  uncached(status: number, value: unknown): PreparedResponse;
}

export function createResponseFactory(cacheMaxAge: number): ResponseFactory {
  const cacheControl = `public, max-age=${cacheMaxAge}`;
  return {
    content(text, contentType) {
      const body = Buffer.from(text, 'utf8');
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      return {
        status: 200,
        body,
        etag,
        headers: { 'content-type': contentType, 'content-length': String(body.length), etag, 'cache-control': cacheControl },
        notModifiedHeaders: { etag, 'cache-control': cacheControl },
      };
    },
    uncached(status, value) {
      const body = Buffer.from(JSON.stringify(value), 'utf8');
      return {
        status,
        body,
        etag: null,
        headers: { 'content-type': contentTypes.json, 'content-length': String(body.length), 'cache-control': 'no-store' },
        notModifiedHeaders: {},
      };
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
