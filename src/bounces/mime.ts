// The MIME structure of a returned mail, read as it is (docs/bounces.md "How a mail is read"): the
// classifier needs every part untouched (the fields of a message/delivery-status part, the headers of the
// returned message, the text of a report whose multipart structure is broken), where a mail reader renders
// attached messages into text and drops what it cannot place. Bodies are decoded from their transfer encoding
// and charset (TextDecoder knows the Japanese and Windows charsets bounces come in); nothing else is interpreted.

export interface MimeHeader {
  /** The field name, lower-cased. */
  name: string;
  /** The value, unfolded, encoded-words decoded, trimmed. */
  value: string;
}

export interface MimePart {
  headers: MimeHeader[];
  /** `type/subtype`, lower-cased; text/plain when the part names none. */
  type: string;
  /** The Content-Type parameters, names lower-cased. */
  params: Record<string, string>;
  /** The body as text, after transfer and charset decoding ('' for a multipart). */
  text: string;
  /** The parts of a multipart, or the one message of a message/rfc822 or text/rfc822-headers part. */
  parts: MimePart[];
}

/** Deeper nesting than this is read as text: returned mail inside returned mail goes two or three deep. */
const MAX_DEPTH = 8;
/** A bigger body is cut: every failure report says what it has to say in its first part of this size. */
const MAX_BODY = 512 * 1024;

/** `raw` (bytes as received, or text) as a MIME tree. Never throws: what cannot be read stays text. */
export function parseMessage(raw: Buffer | string): MimePart {
  const binary = (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw).toString('latin1');
  const lines = binary.replace(/\r\n?/g, '\n');
  // An mbox "From " line before the first header is the mailbox's, not the message's.
  return parseEntity(lines.replace(/^(?:From [^\n]*\n)+/, ''), 0);
}

/** The first value of header `name` (any case), if there is one. */
export function headerOf(part: MimePart, name: string): string | undefined {
  const lower = name.toLowerCase();
  return part.headers.find((header) => header.name === lower)?.value;
}

/** Every value of header `name`, in order. */
export function headersOf(part: MimePart, name: string): string[] {
  const lower = name.toLowerCase();
  return part.headers.filter((header) => header.name === lower).map((header) => header.value);
}

/** Every part of the tree, depth first, `part` included; the `into` test says which parts to descend into. */
export function walkParts(part: MimePart, into: (part: MimePart) => boolean = () => true): MimePart[] {
  const found = [part];
  if (into(part)) for (const child of part.parts) found.push(...walkParts(child, into));
  return found;
}

function parseEntity(entity: string, depth: number): MimePart {
  const { headers, body } = splitHead(entity);
  const { type, params } = contentType(headers);
  const encoding = (headers.find((header) => header.name === 'content-transfer-encoding')?.value ?? '').toLowerCase();
  const part: MimePart = { headers, type, params, text: '', parts: [] };
  if (depth < MAX_DEPTH && type.startsWith('multipart/') && params.boundary) {
    const children = splitMultipart(body, params.boundary);
    if (children) {
      part.parts = children.map((child) => parseEntity(child, depth + 1));
      return part;
    }
    // A multipart whose boundary never appears is read as the text it is.
    part.type = 'text/plain';
  }
  const bytes = transferDecode(body.slice(0, MAX_BODY), encoding);
  if (depth < MAX_DEPTH && /^(?:message\/(?:rfc822|global|rfc822-headers|global-headers)|text\/rfc822-headers)$/.test(type)) {
    part.parts = [parseEntity(bytes.toString('latin1').replace(/\r\n?/g, '\n'), depth + 1)];
    part.text = decodeText(bytes, params.charset);
    return part;
  }
  part.text = decodeText(bytes, params.charset);
  return part;
}

/** The header fields and the body of an entity; a first line that is no field means there are no headers. */
function splitHead(entity: string): { headers: MimeHeader[]; body: string } {
  const headers: MimeHeader[] = [];
  const lines = entity.split('\n');
  let index = 0;
  let current: string | undefined;
  const flush = () => {
    if (current === undefined) return;
    const colon = current.indexOf(':');
    headers.push({ name: current.slice(0, colon).trim().toLowerCase(), value: decodeHeaderValue(current.slice(colon + 1)) });
    current = undefined;
  };
  for (; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.trim() === '') {
      index += 1;
      break;
    }
    if (/^[ \t]/.test(line) && current !== undefined) {
      current += ` ${line.trim()}`;
      continue;
    }
    if (!/^[!-9;-~]+[ \t]*:/.test(line)) {
      // Not a header: either the body starts without a blank line, or this never was a header section.
      if (headers.length === 0 && current === undefined) return { headers, body: entity };
      break;
    }
    flush();
    current = line;
  }
  flush();
  return { headers, body: lines.slice(index).join('\n') };
}

function contentType(headers: MimeHeader[]): { type: string; params: Record<string, string> } {
  const value = headers.find((header) => header.name === 'content-type')?.value ?? '';
  const [first = '', ...rest] = splitParams(value);
  const type = /^[\w.+-]+\/[\w.+-]+$/.test(first.trim()) ? first.trim().toLowerCase() : 'text/plain';
  const params: Record<string, string> = {};
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals < 0) continue;
    const name = param.slice(0, equals).trim().toLowerCase();
    let paramValue = param.slice(equals + 1).trim();
    if (paramValue.startsWith('"')) paramValue = paramValue.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1');
    if (name) params[name] = paramValue;
  }
  return { type, params };
}

/** A header value split at the semicolons outside quoted strings. */
function splitParams(value: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index]!;
    if (char === '\\' && quoted) {
      current += char + (value[index + 1] ?? '');
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ';' && !quoted) {
      pieces.push(current);
      current = '';
    } else current += char;
  }
  pieces.push(current);
  return pieces;
}

/** The bodies between the delimiter lines of `boundary`, or undefined when no delimiter line is there. */
function splitMultipart(body: string, boundary: string): string[] | undefined {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let current: string[] | undefined;
  let seen = false;
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed === delimiter || trimmed === `${delimiter}--`) {
      seen = true;
      if (current) parts.push(current.join('\n'));
      current = trimmed === delimiter ? [] : undefined;
      if (trimmed !== delimiter) break;
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\n'));
  return seen ? parts : undefined;
}

function transferDecode(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const decoded = body
      .replace(/[ \t]+$/gm, '')
      .replace(/=\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(decoded, 'latin1');
  }
  return Buffer.from(body, 'latin1');
}

/** Bytes as text in `charset`; UTF-8 when none is named (or the name is unknown), Windows-1252 when that fails. */
export function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? '').trim().toLowerCase();
  // A 7-bit charset (ISO-2022-JP and its kin) cannot hold 8-bit bytes: text that has them was written in another
  // charset, often UTF-8, whatever its label says.
  const sevenBit = /^iso-2022-/.test(label) && bytes.some((byte) => byte > 0x7f);
  if (label && !sevenBit && label !== 'us-ascii' && label !== 'utf-8' && label !== 'utf8') {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An unknown label: read it as if none were given.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** An unfolded header value: raw 8-bit text read as UTF-8 (RFC 6532), then RFC 2047 encoded-words decoded. */
function decodeHeaderValue(raw: string): string {
  let value = raw.trim();
  if (/[^\x00-\x7f]/.test(value)) value = decodeText(Buffer.from(value, 'latin1'), undefined);
  // Whitespace between two adjacent encoded-words is not part of the text (RFC 2047 section 6.2).
  value = value.replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, '$1');
  return value.replace(/=\?([^?\s*]+)(?:\*[^?\s]*)?\?([BbQq])\?([^?\s]*)\?=/g, (word, charset: string, mode: string, data: string) => {
    try {
      const bytes =
        mode.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : Buffer.from(
              data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
              'latin1',
            );
      return decodeText(bytes, charset);
    } catch {
      return word;
    }
  });
}
