// Mail header hygiene (docs/forms-api.md "Delivery": no header of any mail ever carries a line break from
// input, neither as it is nor spelled as an RFC 2047 encoded word).

// C0 and C1 controls (CR and LF among them), DEL, and the Unicode line and paragraph separators.
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// What may never be part of an address: every control but the tab (which RFC 5322 allows in quoted strings).
const ADDRESS_BREAKERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

// An RFC 2047 encoded word, `=?charset?Q?text?=` or `=?charset?B?text?=` (a charset may carry `*language`, RFC
// 2231). No part holds "?" or white space, so a match never backtracks across words.
const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
// White space between two encoded words is not shown (RFC 2047 section 6.2).
const BETWEEN_WORDS = /(\?=)[ \t\r\n]+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g;
// Decoding only ever shortens a text, and a word nested in a word grows by a third at each level: a few rounds
// reach any real text's bottom. One that still holds words after these many is hostile; its words are dropped.
const DECODE_ROUNDS = 16;

/**
 * `value` as one line of free text (a subject): encoded words decoded first, as a mail program would show them,
 * then each run of control characters made a space, ends trimmed. A name sent as `=?UTF-8?Q?a=0D=0ABcc:_x@y?=`
 * is `a Bcc: x@y`, exactly as if its CR LF had been sent as they are.
 */
export function toHeaderText(value: string): string {
  return decodeEncodedWords(value).replace(CONTROL_RUNS, ' ').trim();
}

/**
 * `value` with every RFC 2047 encoded word replaced by its text, again until none is left (a word may spell
 * another one, or two neighbours may form one once decoded). A word in a charset this runtime does not know is
 * read as Latin-1: its bytes show, and no program can read a line break into it.
 */
export function decodeEncodedWords(value: string): string {
  let text = value;
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    if (!text.includes('=?')) return text;
    const decoded = text.replace(BETWEEN_WORDS, '$1').replace(ENCODED_WORD, decodeWord);
    if (decoded === text) return text;
    text = decoded;
  }
  return text.replace(ENCODED_WORD, '');
}

function decodeWord(_word: string, charset: string, encoding: string, encoded: string): string {
  const bytes = encoding === 'B' || encoding === 'b' ? Buffer.from(encoded, 'base64') : quotedPrintableBytes(encoded);
  const label = charset.split('*', 1)[0]!.toLowerCase();
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** The bytes of the Q encoding (RFC 2047 section 4.2): "_" is a space, "=XX" a byte, anything else itself. */
function quotedPrintableBytes(encoded: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < encoded.length; index += 1) {
    const char = encoded[index]!;
    if (char === '_') bytes.push(0x20);
    else if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(encoded.slice(index + 1, index + 3))) {
      bytes.push(Number.parseInt(encoded.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(encoded.charCodeAt(index) & 0xff);
  }
  return Buffer.from(bytes);
}

/**
 * Whether `value` can stand in an address header as it is. An address with a line break is never
 * legitimate, and "repairing" it could turn it into a different recipient, so such a message is refused.
 */
export function isSafeAddressValue(value: string): boolean {
  return !ADDRESS_BREAKERS.test(value);
}
