// Compressed answers (docs/blog.md "HTTP details", docs/forms-api.md "Compression"): brotli or gzip through
// node:zlib, on the thread pool so that a large body never holds up other requests. Pages made per request (the
// admin's) use fast levels; answers compressed once and kept (the blog's) use higher ones. Text answers of at
// least MIN_COMPRESSED_BYTES are compressed; images and other media never are (they are compressed already).
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Answer } from './answer.js';
import { preferredCoding, type ContentCoding } from './content-negotiation.js';

/** Smaller bodies stay plain: the saving would not pay for the headers and the work. */
export const MIN_COMPRESSED_BYTES = 1024;

export interface CompressionLevels {
  brotliQuality: number;
  gzipLevel: number;
}

/**
 * For a page made per request: brotli quality 5 takes about 2 ms for 120 KB of HTML, as long as gzip's default
 * level and for as few bytes; higher qualities cost several times more (docs/performance.md "Compressed blog
 * answers").
 */
export const PER_REQUEST_LEVELS: CompressionLevels = Object.freeze({ brotliQuality: 5, gzipLevel: 6 });

/**
 * For an answer compressed once per change of the content: smaller bodies for every later request. Quality 9
 * rather than brotli's highest (11), which takes twenty times longer (half a second for a 400 KB listing, seconds
 * for a large sitemap) for about a tenth fewer bytes.
 */
export const CACHED_LEVELS: CompressionLevels = Object.freeze({ brotliQuality: 9, gzipLevel: 9 });

/** Compresses `body` in `coding`. */
export type Compress = (body: Buffer, coding: ContentCoding) => Promise<Buffer>;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function createCompress(levels: CompressionLevels): Compress {
  return (body, coding) =>
    coding === 'br'
      ? brotliAsync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : gzipAsync(body, { level: levels.gzipLevel });
}

/** Text a coding shrinks: HTML, CSS, scripts, JSON, XML and the types built on them (feeds). Never image/*. */
export function isCompressibleType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type.startsWith('text/') || /^application\/(?:json|xml|javascript|[\w.-]+\+(?:json|xml))$/.test(type);
}

/** Whether an answer of `contentType` and `length` bytes is sent compressed to a client that takes it. */
export function isCompressible(contentType: string | undefined, length: number): boolean {
  return length >= MIN_COMPRESSED_BYTES && isCompressibleType(contentType);
}

/** `"abc"` as the tag of its `coding` form, `"abc-br"`: each form of an answer has an entity tag of its own. */
export function taggedWithCoding(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** A Vary value that names Accept-Encoding, kept as it is when it does already (or is `*`). */
export function varyingOnEncoding(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'Accept-Encoding';
  return /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

/** Statuses whose answer has no body to compress. */
const BODILESS = new Set([204, 304]);

/**
 * Compresses answers made per request, in the coding `acceptEncoding` prefers. An answer that may be compressed
 * carries `Vary: Accept-Encoding` whether it is or not; answers with a flat header list (prepared once, with their
 * own compressed forms), streams, small or non-text bodies are given back as they are.
 */
export function createAnswerCompression(compress: Compress = createCompress(PER_REQUEST_LEVELS)): (answer: Answer, acceptEncoding: string | undefined) => Promise<Answer> {
  return async (answer, acceptEncoding) => {
    const { body, headers } = answer;
    if (body === undefined || body instanceof Readable || Array.isArray(headers) || BODILESS.has(answer.status)) return answer;
    const record = headers as Record<string, string>;
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (record['content-encoding'] !== undefined || !isCompressible(record['content-type'], length)) return answer;
    const vary = varyingOnEncoding(record.vary);
    const coding = preferredCoding(acceptEncoding);
    if (coding === undefined) return { ...answer, headers: { ...record, vary } };
    const compressed = await compress(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, coding);
    if (compressed.length >= length) return { ...answer, headers: { ...record, vary } };
    const encoded: Record<string, string> = { ...record, vary, 'content-encoding': coding, 'content-length': String(compressed.length) };
    if (record.etag !== undefined) encoded.etag = taggedWithCoding(record.etag, coding);
    return { ...answer, headers: encoded, body: compressed };
  };
}
