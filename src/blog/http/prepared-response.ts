// A response computed once and sent many times: its bytes, ETag and headers are fixed when it is built
// (the blog is measured against a static file server; docs/blog.md for the headers). Its compressed forms are
// made once too, on first request, and kept with it (encoded-answers.ts).
import { createHash } from 'node:crypto';
import type { Answer } from '../../http/answer.js';
import { isCompressible, varyingOnEncoding } from '../../http/compression.js';
import type { ContentCoding } from '../../http/content-negotiation.js';
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../http/error-catalogue.js';

export interface PreparedResponse {
  /** The full answer (content-length included), its headers a flat list for ServerResponse.writeHead. */
  answer: Answer;
  /** Strong ETag, or null for answers that carry none (errors). */
  etag: string | null;
  /** The 304 answer to a matching If-None-Match. */
  notModified: Answer;
  /**
   * Whether the answer is sent compressed to a client that takes it (text of at least 1 KiB with an ETag); its
   * answers, plain ones and 304s included, then carry `Vary: Accept-Encoding`.
   */
  compressible: boolean;
  /** The compressed forms made so far, by coding; filled by encoded-answers.ts. */
  encodings?: Partial<Record<ContentCoding, EncodedForm>>;
}

/** One coding's form of a prepared response. */
export interface EncodedForm {
  /** Its 304, with the coding's entity tag: made at once, a 304 needs no compressed body. */
  notModified: Answer;
  /** The compressed answer once made (the plain one when compressing saved nothing). */
  answer?: Answer;
  /** The compression under way: requests meanwhile wait for the same one. */
  compressing?: Promise<Answer>;
}

/** Every answer of the blog, errors and 304s included, may be read by any page (docs/blog.md "HTTP details"). */
export const BLOG_COMMON_HEADERS = Object.freeze({ 'access-control-allow-origin': '*' });

/** A prepared answer of `body` with `headers` (content-length included), and the headers of its 304. */
export function prepareResponse(status: number, body: Buffer, etag: string | null, headers: Record<string, string>, notModifiedHeaders: Record<string, string>): PreparedResponse {
  const compressible = etag !== null && isCompressible(headers['content-type'], body.length);
  const vary = compressible ? { vary: varyingOnEncoding(headers.vary) } : {};
  return {
    answer: { status, headers: Object.entries({ ...BLOG_COMMON_HEADERS, ...headers, ...vary }).flat(), body },
    etag,
    notModified: { status: 304, headers: Object.entries({ ...BLOG_COMMON_HEADERS, ...notModifiedHeaders, ...vary }).flat() },
    compressible,
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
      return prepareResponse(
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
    return prepareResponse(status, body, null, headers, {});
  }
}

/**
 * Whether an If-None-Match header matches `etag` (RFC 9110 section 13.1.2: weak comparison, lists, `*`). With
 * `anyCoding`, the tags of the compressed forms (`"abc-br"`, `"abc-gzip"`) match too: they name the same content,
 * and a client or proxy that kept one form revalidates with its tag whatever it asks for next (docs/blog.md
 * "HTTP details").
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string, anyCoding = false): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  for (const candidate of header.split(',')) {
    const trimmed = candidate.trim();
    if (trimmed === '*') return true;
    const tag = trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed;
    if (tag === etag || (anyCoding && withoutCoding(tag) === etag)) return true;
  }
  return false;
}

/** `"abc-br"` or `"abc-gzip"` as `"abc"`; any other tag as it is. */
function withoutCoding(tag: string): string {
  const match = /^(".*)-(?:br|gzip)"$/.exec(tag);
  return match ? `${match[1]}"` : tag;
}
