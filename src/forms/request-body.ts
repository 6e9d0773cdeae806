// Reads a form POST body (docs/forms-api.md "POST <path>"): size first, then syntax.
// The bytes come through the one bounded reader (http/body-reader.ts). JSON is collected (at most max_body_bytes)
// and parsed; urlencoded and multipart stream through busboy,
// file parts drained without being kept, a repeated field keeping its first value (but for `lists`, whose values
// are all kept: the boxes ticked on a newsletter form, docs/newsletter.md "Lists"). Nothing here answers
// HTTP: the outcome names the error code and a message that never echoes the input.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { isDeclaredTooLarge, pumpBody, type BodyEnd } from '../http/body-reader.js';
import type { StoredAttachment } from './attachments/attachment-store.js';
import { createFileCollector, type AttachmentIntake } from './attachments/file-intake.js';

/** The parsed fields of a body, before validation. */
export type FormFields = Record<string, unknown>;

export type BodyOutcome =
  | { ok: true; fields: FormFields; files?: StoredAttachment[] }
  | {
      ok: false;
      error: 'body_too_large' | 'invalid_body';
      message: string;
    }
  /** A file refused (docs/attachments.md "Limits"): too many, or of a type the form does not take. */
  | { ok: false; error: 'validation'; field: string; message: string }
  /** A file the storage did not take (an S3 store down): nothing of the body was kept. */
  | { ok: false; error: 'storage_failed'; message: string };

export const ACCEPTED_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/**
 * The answer to a missing or unsupported Content-Type names the accepted ones (docs/forms-api.md
 * "POST <path>").
 */
export const UNSUPPORTED_TYPE_MESSAGE = `Content-Type must be one of ${ACCEPTED_CONTENT_TYPES.join(', ')}.`;

export interface BodySource {
  stream: Readable;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/**
 * Reads and parses `source` without ever holding more than `maxBytes` of it. Not an async function: a JSON
 * body is parsed where its reading ends, so the outcome takes no extra promise and microtask per request.
 */
export function readFormBody(source: BodySource, maxBytes: number, intake?: AttachmentIntake): Promise<BodyOutcome> {
  const mediaType = mediaTypeOf(source.contentType);
  if (intake !== undefined && mediaType === 'multipart/form-data') {
    // docs/attachments.md "Limits": the files beside the fields; other bodies keep max_body_bytes.
    const withFiles = maxBytes + intake.maxFiles * intake.maxBytes;
    if (isDeclaredTooLarge(source.contentLength, withFiles)) return Promise.resolve(tooLarge(withFiles));
    return readFormEncoded(source.stream, source.contentType as string, withFiles, intake, maxBytes);
  }
  if (isDeclaredTooLarge(source.contentLength, maxBytes)) return Promise.resolve(tooLarge(maxBytes));
  if (mediaType === 'multipart/form-data' || mediaType === 'application/x-www-form-urlencoded') {
    return readFormEncoded(source.stream, source.contentType as string, maxBytes);
  }
  // Any other type is still read (size is judged before syntax), but not kept.
  if (mediaType !== 'application/json') {
    return pumpBody(source.stream, maxBytes, ignore, (end) => (end === 'end' ? invalid(UNSUPPORTED_TYPE_MESSAGE) : pumpFailure(end, maxBytes)));
  }
  const chunks: Buffer[] = [];
  return pumpBody(
    source.stream,
    maxBytes,
    (chunk) => chunks.push(chunk),
    (end) => (end === 'end' ? parseJsonObject(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)) : pumpFailure(end, maxBytes)),
  );
}

/** The media type of a Content-Type header, lower case, without parameters. */
function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** A JSON body must be one UTF-8 JSON object (docs/forms-api.md "POST <path>"). */
export function parseJsonObject(bytes: Uint8Array): BodyOutcome {
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(bytes));
  } catch {
    return invalid('The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return invalid('The JSON body must be an object.');
  return { ok: true, fields: value as FormFields };
}

/**
 * Strict UTF-8 decoding, as TextDecoder('utf-8', { fatal: true }) does it (a leading BOM dropped, invalid
 * bytes an error) without building a decoder per body, and in one pass over valid bytes: decoding puts U+FFFD
 * for every invalid sequence, so a text without one came from valid UTF-8, and only a text with one (which
 * the client may have sent as such) has its bytes checked.
 */
function decodeUtf8(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hasBom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  const text = buffer.toString('utf8', hasBom ? 3 : 0);
  if (text.includes('\ufffd') && !isUtf8(buffer)) throw new TypeError('invalid UTF-8');
  return text;
}

async function readFormEncoded(stream: Readable, contentType: string, maxBytes: number, intake?: AttachmentIntake, maxFieldBytes = maxBytes): Promise<BodyOutcome> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: intake ? { fieldSize: maxFieldBytes, fileSize: intake.maxBytes } : { fieldSize: maxBytes },
      defParamCharset: 'utf8',
    });
  } catch {
    // busboy throws on a multipart type without a boundary.
    await pumpBody(stream, maxBytes, ignore, (end) => end);
    return invalid('The multipart body has no boundary.');
  }
  const fields: FormFields = Object.create(null) as FormFields;
  parser.on('field', (name, value) => {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
    else if (name === 'lists') fields[name] = `${String(fields[name])},${value}`;
  });
  const collector = intake && createFileCollector(intake);
  parser.on('file', (name, file, info) => (collector ? collector.take(name, file, info.filename) : file.resume()));
  const parsed = new Promise<boolean>((resolve) => {
    parser.on('close', () => resolve(true));
    parser.on('error', () => resolve(false));
  });
  const end = await pumpBody(stream, maxBytes, (chunk) => parser.write(chunk), (pumpEnd) => pumpEnd);
  if (end !== 'end') {
    parser.destroy();
    await collector?.discard();
    return pumpFailure(end, maxBytes);
  }
  parser.end();
  if (!(await parsed)) {
    await collector?.discard();
    return invalid('The form body could not be parsed.');
  }
  if (collector === undefined) return { ok: true, fields };
  const taken = await collector.finish();
  if (taken.ok) return { ok: true, fields, files: taken.files };
  const { status, field, message } = taken.refusal;
  // The field's name is the form's own markup, cut short so that a made-up one cannot fill the answer.
  const named = `${message} (field "${field.slice(0, 64)}")`;
  if (status === 500) return { ok: false, error: 'storage_failed', message };
  return status === 413 ? { ok: false, error: 'body_too_large', message: named } : { ok: false, error: 'validation', field: field.slice(0, 64), message };
}

function pumpFailure(end: Exclude<BodyEnd, 'end'>, maxBytes: number): BodyOutcome {
  return end === 'too_large' ? tooLarge(maxBytes) : incomplete();
}

function ignore(): void {}

function tooLarge(maxBytes: number): BodyOutcome {
  return { ok: false, error: 'body_too_large', message: `The request body must not exceed ${maxBytes} bytes.` };
}

function invalid(message: string): BodyOutcome {
  return { ok: false, error: 'invalid_body', message };
}

function incomplete(): BodyOutcome {
  return { ok: false, error: 'invalid_body', message: 'The request body did not arrive completely.' };
}
