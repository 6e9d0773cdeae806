// The pairs of adjacent characters a folded text contains, hashed into a bit set: the filter the `q` scan
// before the index (pair-filter-scan.ts) used to rule posts out without reading their text.

/**
 * Which pairs of adjacent characters a text contains, hashed into 4,096 bits (512 bytes a post). A text
 * lacking any pair of a term cannot contain the term, so most posts are ruled out without reading them.
 */
export type SearchFilter = Uint32Array;

/** The bits a term's character pairs set: pairs of (word index, mask) into a SearchFilter. */
export type TermFilter = Uint32Array;

const FILTER_BITS_LOG2 = 12;
const FILTER_WORDS = (1 << FILTER_BITS_LOG2) / 32;

function pairBit(previous: number, next: number): number {
  return (Math.imul(previous, 0x9e3779b1) ^ Math.imul(next, 0x85ebca77)) >>> (32 - FILTER_BITS_LOG2);
}

/** The filter of a folded text. */
export function createSearchFilter(folded: string): SearchFilter {
  const bits = new Uint32Array(FILTER_WORDS);
  let previous = folded.charCodeAt(0);
  for (let index = 1; index < folded.length; index += 1) {
    const next = folded.charCodeAt(index);
    const bit = pairBit(previous, next);
    bits[bit >>> 5]! |= 1 << (bit & 31);
    previous = next;
  }
  return bits;
}

/** The bits of a folded term, for `mayContain`. */
export function createTermFilter(term: string): TermFilter {
  const masks = new Map<number, number>();
  for (let index = 1; index < term.length; index += 1) {
    const bit = pairBit(term.charCodeAt(index - 1), term.charCodeAt(index));
    masks.set(bit >>> 5, (masks.get(bit >>> 5) ?? 0) | (1 << (bit & 31)));
  }
  return Uint32Array.from([...masks].flat());
}

/** False when the text behind `filter` certainly lacks the term behind `term`; true when it may contain it. */
export function mayContain(filter: SearchFilter, term: TermFilter): boolean {
  for (let index = 0; index < term.length; index += 2) {
    // Bitwise operators give signed 32-bit results: test for missing bits rather than compare with the mask.
    if ((term[index + 1]! & ~filter[term[index]!]!) !== 0) return false;
  }
  return true;
}
