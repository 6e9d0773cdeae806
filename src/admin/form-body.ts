// The body of an admin POST: urlencoded or multipart/form-data (uploads), read through busboy with a size limit,
// fields and files kept in memory. Nothing here answers HTTP: the outcome says what was wrong.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { isDeclaredTooLarge, pumpBody } from '../http/body-reader.js';

/** A file of a multipart body, as sent: its name and type are claims to check, not facts. */
interface UploadedFile {
  field: string;
  fileName: string;
  declaredType: string;
  data: Buffer;
}

/** The fields of a POST (a repeated field keeps every value) and its files. */
export interface AdminForm {
  fields: URLSearchParams;
  files: UploadedFile[];
}

type FormBodyOutcome = { ok: true; form: AdminForm } | { ok: false; problem: 'too_large' | 'invalid' };

/**
 * Reads `request`'s body through the one bounded reader (http/body-reader.ts), refusing more than `maxBytes` in
 * all (a multipart body's files included); a body of another type is still read up to the limit, as size is
 * judged before syntax, but not kept.
 */
export async function readAdminForm(request: IncomingMessage, maxBytes: number): Promise<FormBodyOutcome> {
  if (isDeclaredTooLarge(request.headers['content-length'], maxBytes)) return TOO_LARGE;
  const parser = createParser(request, maxBytes);
  if (parser === undefined) return pumpBody(request, maxBytes, ignore, (end) => (end === 'too_large' ? TOO_LARGE : INVALID));
  const fields = new URLSearchParams();
  const files: UploadedFile[] = [];
  // More fields or files than busboy's limits take: the body is still read to its end (it is within maxBytes).
  let overLimit = false;
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) overLimit = true;
    else fields.append(name, value);
  });
  parser.on('file', (field, stream, info) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (overLimit = true));
    stream.on('close', () => files.push({ field, fileName: info.filename ?? '', declaredType: info.mimeType, data: Buffer.concat(chunks) }));
  });
  parser.on('filesLimit', () => (overLimit = true));
  parser.on('fieldsLimit', () => (overLimit = true));
  const parsed = new Promise<boolean>((resolve) => {
    parser.on('close', () => resolve(true));
    parser.on('error', () => resolve(false));
  });
  const end = await pumpBody(request, maxBytes, (chunk) => parser.write(chunk), (pumpEnd) => pumpEnd);
  if (end !== 'end') {
    parser.destroy();
    return end === 'too_large' ? TOO_LARGE : INVALID;
  }
  parser.end();
  if (!(await parsed)) return INVALID;
  return overLimit ? TOO_LARGE : { ok: true, form: { fields, files } };
}

/** A parser for the body's type, or undefined for a type the admin does not take. */
function createParser(request: IncomingMessage, maxBytes: number): busboy.Busboy | undefined {
  const type = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return undefined;
  try {
    return busboy({ headers: request.headers, defParamCharset: 'utf8', limits: { fieldSize: maxBytes, fileSize: maxBytes, fields: 1000, files: 20 } });
  } catch {
    // busboy throws on a multipart type without a boundary.
    return undefined;
  }
}

const TOO_LARGE: FormBodyOutcome = { ok: false, problem: 'too_large' };
const INVALID: FormBodyOutcome = { ok: false, problem: 'invalid' };

function ignore(): void {}
