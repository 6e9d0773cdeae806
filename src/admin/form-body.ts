// The body of an admin POST: urlencoded or multipart/form-data (uploads), read through busboy with a size limit,
// fields and files kept in memory. Nothing here answers HTTP: the outcome says what was wrong.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';

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

/** Reads `request`'s body, refusing more than `maxBytes` in all (a multipart body's files included). */
export async function readAdminForm(request: IncomingMessage, maxBytes: number): Promise<FormBodyOutcome> {
  if (Number(request.headers['content-length']) > maxBytes) return drainThen(request, { ok: false, problem: 'too_large' });
  const type = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return drainThen(request, { ok: false, problem: 'invalid' });
  return new Promise((resolve) => {
    const fields = new URLSearchParams();
    const files: UploadedFile[] = [];
    let received = 0;
    let settled = false;
    const settle = (outcome: FormBodyOutcome) => {
      if (settled) return;
      settled = true;
      request.unpipe();
      if (!outcome.ok) request.resume();
      resolve(outcome);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, defParamCharset: 'utf8', limits: { fieldSize: maxBytes, fileSize: maxBytes, fields: 1000, files: 20 } });
    } catch {
      return settle({ ok: false, problem: 'invalid' });
    }
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) settle({ ok: false, problem: 'too_large' });
    });
    request.on('error', () => settle({ ok: false, problem: 'invalid' }));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return settle({ ok: false, problem: 'too_large' });
      fields.append(name, value);
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => settle({ ok: false, problem: 'too_large' }));
      stream.on('close', () => files.push({ field, fileName: info.filename ?? '', declaredType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('filesLimit', () => settle({ ok: false, problem: 'too_large' }));
    parser.on('fieldsLimit', () => settle({ ok: false, problem: 'too_large' }));
    parser.on('error', () => settle({ ok: false, problem: 'invalid' }));
    parser.on('close', () => settle({ ok: true, form: { fields, files } }));
    request.pipe(parser);
  });
}

/** Reads and drops the rest of the body, so that the answer reaches the client, then gives `outcome`. */
function drainThen(request: IncomingMessage, outcome: FormBodyOutcome): FormBodyOutcome {
  request.resume();
  return outcome;
}
