// Which form of a prepared answer a request gets (docs/blog.md "HTTP details"): plain, or compressed in the coding
// its Accept-Encoding prefers, or the 304 of that form. A form is compressed once, on the first request that asks
// for it, and kept with the prepared answer, so it is made again only when the content changes; requests that
// ask for it while it is being made wait for that one compression.
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer } from '../../http/answer.js';
import { CACHED_LEVELS, createCompress, taggedWithCoding, type Compress } from '../../http/compression.js';
import { preferredCoding, type ContentCoding } from '../../http/content-negotiation.js';
import { matchesIfNoneMatch, type EncodedForm, type PreparedResponse } from './prepared-response.js';

/** The answer to a GET or HEAD of `prepared`, given the request's headers. */
export type PickAnswer = (prepared: PreparedResponse, headers: IncomingHttpHeaders) => Answer | Promise<Answer>;

/** Picks forms of prepared answers, compressing with `compress` (the blog's cached levels unless a test counts). */
export function createAnswerPicker(compress: Compress = createCompress(CACHED_LEVELS)): PickAnswer {
  return (prepared, headers) => {
    const ifNoneMatch = headers['if-none-match'];
    if (!prepared.compressible) {
      return prepared.etag !== null && matchesIfNoneMatch(ifNoneMatch, prepared.etag) ? prepared.notModified : prepared.answer;
    }
    const etag = prepared.etag as string;
    const matches = ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, etag, true);
    const coding = preferredCoding(headers['accept-encoding']);
    if (coding === undefined) return matches ? prepared.notModified : prepared.answer;
    const encodings = (prepared.encodings ??= {});
    const form = (encodings[coding] ??= { notModified: notModifiedOf(prepared, coding) });
    if (matches) return form.notModified;
    return form.answer ?? (form.compressing ??= compressInto(form, prepared, coding, compress));
  };
}

/** The 304 of `coding`'s form: the plain 304 with the form's entity tag. */
function notModifiedOf(prepared: PreparedResponse, coding: ContentCoding): Answer {
  return { status: 304, headers: replaced(prepared.notModified.headers as readonly string[], { etag: taggedWithCoding(prepared.etag as string, coding) }) };
}

/** Compresses the body once and keeps the form's answer; a failure answers plain and lets a later request try again. */
async function compressInto(form: EncodedForm, prepared: PreparedResponse, coding: ContentCoding, compress: Compress): Promise<Answer> {
  const plain = prepared.answer;
  const body = plain.body as Buffer;
  let compressed: Buffer;
  try {
    compressed = await compress(body, coding);
  } catch {
    form.compressing = undefined;
    return plain;
  }
  // Text of 1 KiB and more always shrinks; should it not, the form is the plain answer, its entity tag and 304 too.
  if (compressed.length >= body.length) form.notModified = prepared.notModified;
  form.answer =
    compressed.length >= body.length
      ? plain
      : {
          status: plain.status,
          headers: replaced(plain.headers as readonly string[], {
            'content-length': String(compressed.length),
            etag: taggedWithCoding(prepared.etag as string, coding),
            'content-encoding': coding,
          }),
          body: compressed,
        };
  form.compressing = undefined;
  return form.answer;
}

/** A flat header list with the values of `changes` in place of its own, and those it lacks added at the end. */
function replaced(pairs: readonly string[], changes: Record<string, string>): string[] {
  const result: string[] = [];
  const left = new Map(Object.entries(changes));
  for (let index = 0; index + 1 < pairs.length; index += 2) {
    const name = pairs[index] as string;
    const change = left.get(name);
    result.push(name, change ?? (pairs[index + 1] as string));
    left.delete(name);
  }
  for (const [name, value] of left) result.push(name, value);
  return result;
}
