// A file that does not change while the process runs (the admin's scripts and stylesheet, the ALTCHA widget),
// answered from memory (docs/architecture.md "Browser code"): each content coding the client may take (the one
// Accept-Encoding negotiation, content-negotiation.ts) is compressed once, on its first request, and kept; each
// form has an entity tag of its own (`"<hash>"`, `"<hash>-br"`, `"<hash>-gzip"`), and a request that holds the file
// is answered 304.
import { createHash } from 'node:crypto';
import type { Answer } from './answer.js';
import { createCompress, isCompressible, taggedWithCoding, type Compress } from './compression.js';
import { preferredCoding, type ContentCoding } from './content-negotiation.js';

/** For a file whose address names its content: it never changes, so a client keeps it for a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Compressed once per process, so at the highest levels: brotli 11 takes a few tenths of a second for the widget's
 * 100 KB, once, for the fewest bytes on every later request.
 */
const compressOnce: Compress = createCompress({ brotliQuality: 11, gzipLevel: 9 });

/** The hash a versioned address and the entity tags carry: 16 characters of SHA-256, base64url. */
export function contentHash(body: Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

/** What the answers of one file read of a GET or HEAD. */
export interface FixedFileRequest {
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
}

/**
 * The answers of `body`: `headers` (its Content-Type, Cache-Control and any other) on each, with its ETag and, for a
 * compressible file, `Vary: Accept-Encoding` and the chosen Content-Encoding.
 */
export function createFixedFile(body: Buffer, headers: Readonly<Record<string, string>>): (request: FixedFileRequest) => Promise<Answer> {
  const etag = `"${contentHash(body)}"`;
  const compressible = isCompressible(headers['content-type'], body.length);
  const tags = compressible ? [etag, taggedWithCoding(etag, 'br'), taggedWithCoding(etag, 'gzip')] : [etag];
  const encoded = new Map<ContentCoding, Promise<Buffer>>();
  const encodedIn = (coding: ContentCoding): Promise<Buffer> => {
    let form = encoded.get(coding);
    if (!form) {
      form = compressOnce(body, coding);
      encoded.set(coding, form);
    }
    return form;
  };
  return async ({ acceptEncoding, ifNoneMatch }) => {
    const coding = compressible ? preferredCoding(acceptEncoding) : undefined;
    const own: Record<string, string> = { ...headers, etag: coding ? taggedWithCoding(etag, coding) : etag };
    if (compressible) own.vary = 'Accept-Encoding';
    // Any form's tag names the same content: a cache that kept one form revalidates with its tag whatever it asks for.
    if (matchesAny(ifNoneMatch, tags)) return { status: 304, headers: own };
    if (coding === undefined) return { status: 200, headers: { ...own, 'content-length': String(body.length) }, body };
    const compressed = await encodedIn(coding);
    return { status: 200, headers: { ...own, 'content-encoding': coding, 'content-length': String(compressed.length) }, body: compressed };
  };
}

/** Whether an If-None-Match header names one of `tags` (RFC 9110 section 13.1.2: weak comparison, lists, `*`). */
function matchesAny(header: string | undefined, tags: readonly string[]): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tags.includes(tag);
  });
}
