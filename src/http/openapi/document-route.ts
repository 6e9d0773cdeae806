// GET and HEAD /openapi.json on each listener (docs/openapi.md): the listener's OpenAPI document, built once when
// the service starts and serialised once, sent with a strong ETag and `Cache-Control: no-cache` so that a client
// revalidates it (a 304 on a matching If-None-Match) and sees a changed configuration after a restart. Compressed
// in the coding the service's one Accept-Encoding negotiation picks (content-negotiation.ts), each coding made once
// on its first request and tagged apart (docs/forms-api.md "Compression").
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Answer } from '../answer.js';
import { CACHED_LEVELS, taggedWithCoding } from '../compression.js';
import { preferredCoding, type ContentCoding } from '../content-negotiation.js';
import { JSON_CONTENT_TYPE } from '../error-catalogue.js';
import type { Handler, Route } from '../route-table.js';

export const OPENAPI_PATH = '/openapi.json';

/** The route that serves `document`. */
export function createDocumentRoute(document: object): Route {
  const plain = Buffer.from(JSON.stringify(document), 'utf8');
  const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}"`;
  const forms = new Map<ContentCoding | 'identity', DocumentForm>();
  const formOf = (coding: ContentCoding | undefined): DocumentForm => {
    const key = coding ?? 'identity';
    let form = forms.get(key);
    if (form === undefined) {
      form = coding === undefined ? documentForm(plain, etag) : documentForm(compressOnce(plain, coding), taggedWithCoding(etag, coding), coding);
      forms.set(key, form);
    }
    return form;
  };
  const handler: Handler = (request) => {
    const form = formOf(preferredCoding(request.raw.headers['accept-encoding']));
    return matchesEtag(request.raw.headers['if-none-match'], form.etag) ? form.notModified : form.full;
  };
  return { path: OPENAPI_PATH, methods: { GET: handler, HEAD: handler } };
}

/** One coding of the document: its whole answer and its 304. */
interface DocumentForm {
  etag: string;
  full: Answer;
  notModified: Answer;
}

function documentForm(body: Buffer, etag: string, coding?: ContentCoding): DocumentForm {
  // Any page may read it: a documentation viewer or a code generator runs from another origin.
  const common = ['etag', etag, 'cache-control', 'no-cache', 'access-control-allow-origin', '*', 'vary', 'Accept-Encoding'];
  const encoding = coding === undefined ? [] : ['content-encoding', coding];
  return {
    etag,
    full: { status: 200, headers: ['content-type', JSON_CONTENT_TYPE, 'content-length', String(body.length), ...encoding, ...common], body },
    notModified: { status: 304, headers: common },
  };
}

/** Made once per coding and kept: the levels of answers compressed once (compression.ts CACHED_LEVELS). */
function compressOnce(body: Buffer, coding: ContentCoding): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: CACHED_LEVELS.gzipLevel });
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: CACHED_LEVELS.brotliQuality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
}

/** Whether an If-None-Match header names `etag` (RFC 9110 section 13.1.2: weak comparison, lists, `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}
