// What a file is, judged from its first bytes and never from its name or the type the client declared
// (docs/attachments.md "Types"). Only the families a form may take are recognised; anything else (HTML, SVG,
// programs, archives other than ZIP) is undefined and refused.
import { isUtf8 } from 'node:buffer';

/** How many leading bytes the sniffer needs. */
export const SNIFF_BYTES = 4096;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

const SIGNATURES: ReadonlyArray<{ type: string; test(bytes: Uint8Array): boolean }> = [
  { type: 'image/png', test: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', test: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', test: (bytes) => startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')) },
  { type: 'image/webp', test: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8) },
  { type: 'application/pdf', test: (bytes) => startsWith(bytes, ascii('%PDF-')) },
];

/** The MIME type of a file from its first SNIFF_BYTES bytes (all of it when shorter); undefined when unknown. */
export function sniffType(head: Uint8Array, complete: boolean): string | undefined {
  for (const signature of SIGNATURES) if (signature.test(head)) return signature.type;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return officeTypeOf(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1')) ?? 'application/zip';
  return isPlainText(head, complete) ? 'text/plain' : undefined;
}

/**
 * An office document is a ZIP archive whose first entries name it: ODF stores `mimetype` first, uncompressed,
 * and OOXML starts with `[Content_Types].xml` then its parts' folders. Any other ZIP is `application/zip`, which
 * a form takes only when its `types` list it (clamd scans inside the archive).
 */
function officeTypeOf(head: string): string | undefined {
  const odf = /^PK\x03\x04[\s\S]{26}mimetype(application\/vnd\.oasis\.opendocument\.[a-z.-]+)/.exec(head);
  if (odf) return odf[1];
  if (!head.includes('[Content_Types].xml')) return undefined;
  if (head.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (head.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (head.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  return undefined;
}

/**
 * UTF-8 without control characters other than tab, line breaks and form feed, and not markup: a text that
 * opens with "<" (HTML, SVG, XML) or "#!" (a script) is not plain text here. A head cut inside a character may
 * end in up to three bytes of it.
 */
function isPlainText(head: Uint8Array, complete: boolean): boolean {
  if (head.length === 0) return false;
  let end = head.length;
  if (!complete) while (end > head.length - 3 && end > 0 && ((head[end - 1] as number) & 0xc0) === 0x80) end -= 1;
  if (!complete && end > 0 && (head[end - 1] as number) >= 0xc0) end -= 1;
  const text = head.subarray(0, end);
  if (!isUtf8(text)) return false;
  for (const byte of text) if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) || byte === 0x7f) return false;
  const opening = Buffer.from(text.buffer, text.byteOffset, Math.min(text.length, 512)).toString('utf8').replace(/^\ufeff/, '').trimStart();
  return !opening.startsWith('<') && !opening.startsWith('#!');
}

/** Whether `type` is one of `accepted`: a MIME type, or a family ending in `*` ("image/*"). */
export function isTypeAccepted(type: string, accepted: readonly string[]): boolean {
  return accepted.some((entry) => (entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : type === entry));
}
