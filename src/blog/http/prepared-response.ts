// A response computed once and sent many times: its bytes, ETag and headers are fixed when it is built
// (the blog is measured against a static file server; docs/blog.md for the headers).
import { createHash } from 'node:crypto';
import type { Answer } from '../../http/answer.js';
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../http/error-catalogue.js';

export interface PreparedResponse {
  /** The full answer (content-length included), its headers a flat list for ServerResponse.writeHead. */
  answer: Answer;
  /** Strong ETag, or null for answers that carry none (errors). */
  etag: string | null;
  /** The 304 answer to a matching If-None-Match. */
  notModified: Answer;
}

/** Every answer of the blog, errors and 304s included, may be read by any page (docs/blog.md "HTTP details"). */
export const BLOG_COMMON_HEADERS = Object.freeze({ 'access-control-allow-origin': '*' });

function prepare(status: number, body: Buffer, etag: string | null, headers: Record<string, string>, notModifiedHeaders: Record<string, string>): PreparedResponse {
  return {
    answer: { status, headers: Object.entries({ ...BLOG_COMMON_HEADERS, ...headers }).flat(), body },
    etag,
    notModified: { status: 304, headers: Object.entries({ ...BLOG_COMMON_HEADERS, ...notModifiedHeaders }).flat() },
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
  /** A cacheable 200 answer with an ETag (the hash of the bytes), with any `extraHeaders`. */
  content(body: string | Buffer, contentType: string, extraHeaders?: Record<string, string>): PreparedResponse;
  /** A JSON answer without ETag or shared caching (/health), with any `extraHeaders`. */
  uncached(status: number, value: unknown, extraHeaders?: Record<string, string>): PreparedResponse;
  /** The error catalogue's answer for `code`, uncached. */
  error(code: ErrorCode, message?: string, extraHeaders?: Record<string, string>): PreparedResponse;
}

export function createResponseFactory(cacheMaxAge: number): ResponseFactory {
  const cacheControl = `public, max-age=${cacheMaxAge}`;
  return {
    content(text, contentType, extraHeaders = {}) {
      const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      return prepare(
        200,
        body,
        etag,
        { 'content-type': contentType, 'content-length': String(body.length), etag, 'cache-control': cacheControl, ...extraHeaders },
        { etag, 'cache-control': cacheControl },
      );
    },
    uncached,
    error: (code, message, extraHeaders) => uncachedText(ERROR_CATALOGUE[code].status, errorBody(code, message), extraHeaders),
  };

  function uncached(status: number, value: unknown, extraHeaders: Record<string, string> = {}): PreparedResponse {
    return uncachedText(status, JSON.stringify(value), extraHeaders);
  }

  function uncachedText(status: number, text: string, extraHeaders: Record<string, string> = {}): PreparedResponse {
    const body = Buffer.from(text, 'utf8');
    const headers = { 'content-type': contentTypes.json, 'content-length': String(body.length), 'cache-control': 'no-store', ...extraHeaders };
    return prepare(status, body, null, headers, {});
  }
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
