// The signed VERP tag (docs/bounces.md "Suppression"): every mail leaves with the envelope sender
// `<local>+<tag>@<domain>` of `[mail.bounces] address`, so a bounce, which goes to the envelope sender, names the
// message it is about. The tag is the id of the sent mail's record (its day, then random) and an HMAC of that id:
// a tag nobody signed (forged, or cut short on the way) is told apart from a real one without any lookup. Tags are
// lower-case base32, so a mail system that changes the case of a local part does not break them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { VERP_TAG_LENGTH } from '../config/bounces.js';
import type { RandomBytes } from '../ports.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const DAY_MS = 86_400_000;
/** Characters of the id: 4 for the day since the epoch, 12 random (60 bits). */
export const SENT_ID_LENGTH = 16;
const DAY_CHARACTERS = 4;
const MAC_LENGTH = VERP_TAG_LENGTH - SENT_ID_LENGTH;
const TAG = new RegExp(`^[a-z2-7]{${VERP_TAG_LENGTH}}$`);
/** A tagged address somewhere in a text (a header value, an envelope): `<anything>+<tag>@<domain>`. */
const TAGGED_ADDRESS = new RegExp(`[^\\s<>"'(),;:@]+\\+([a-z2-7]{${VERP_TAG_LENGTH}})@[^\\s<>"'(),;:@]+`, 'gi');

/** `bytes` in base32 (RFC 4648 alphabet, lower case), without padding. */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += ALPHABET[(value << (5 - bits)) & 31];
  return text;
}

/** A new id for a sent mail at `now`: its UTC day since the epoch, then 60 random bits. */
export function newSentId(now: number, randomBytes: RandomBytes): string {
  let day = Math.max(0, Math.floor(now / DAY_MS));
  let prefix = '';
  for (let index = 0; index < DAY_CHARACTERS; index += 1) {
    prefix = ALPHABET[day & 31] + prefix;
    day = Math.floor(day / 32);
  }
  return prefix + base32(randomBytes(8)).slice(0, SENT_ID_LENGTH - DAY_CHARACTERS);
}

/** The UTC day (since the epoch) an id was made on; the files keep a day's records together by it. */
export function dayOfSentId(id: string): number {
  let day = 0;
  for (const character of id.slice(0, DAY_CHARACTERS)) day = day * 32 + ALPHABET.indexOf(character);
  return day;
}

/** Whether `id` has the shape newSentId gives. */
export function isSentId(id: string): boolean {
  return new RegExp(`^[a-z2-7]{${SENT_ID_LENGTH}}$`).test(id);
}

/** The key tags are signed with: derived from the state store's secret (the newsletter's), a key of its own. */
export function bounceKeyOf(secret: Buffer): Buffer {
  return createHmac('sha256', secret).update('postbox bounce tag').digest();
}

/** What a tagged address says: the id of a mail this service sent, or a tag it never signed. */
export type TagReading = { id: string } | 'forged';

export interface Verp {
  /** The tag of the sent mail `id`. */
  tagOf(id: string): string;
  /** The envelope sender of the sent mail `id`: `address` with the tag after a "+". */
  envelopeSender(address: string, id: string): string;
  /** Every tagged address in `texts`, read: undefined when there is none. */
  read(texts: readonly string[]): TagReading | undefined;
}

export function createVerp(key: Buffer): Verp {
  const macOf = (id: string) => base32(createHmac('sha256', key).update(id).digest()).slice(0, MAC_LENGTH);
  const tagOf = (id: string) => `${id}${macOf(id)}`;
  const check = (tag: string): TagReading => {
    const id = tag.slice(0, SENT_ID_LENGTH);
    const expected = Buffer.from(macOf(id));
    const given = Buffer.from(tag.slice(SENT_ID_LENGTH));
    return given.length === expected.length && timingSafeEqual(given, expected) ? { id } : 'forged';
  };
  return {
    tagOf,
    envelopeSender(address, id) {
      const at = address.lastIndexOf('@');
      return `${address.slice(0, at)}+${tagOf(id)}${address.slice(at)}`;
    },
    read(texts) {
      let forged = false;
      for (const text of texts) {
        for (const match of text.matchAll(TAGGED_ADDRESS)) {
          const tag = match[1]!.toLowerCase();
          if (!TAG.test(tag)) continue;
          const reading = check(tag);
          if (reading !== 'forged') return reading;
          forged = true;
        }
      }
      return forged ? 'forged' : undefined;
    },
  };
}
