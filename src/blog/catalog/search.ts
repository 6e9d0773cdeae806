// Case-insensitive matching for `q` and `tag` (contract section 4: "case-insensitively (Unicode)").
//
// Folding is NFKC, then upper case, then lower case. The round trip through upper case applies Unicode's
// full case mappings, so "ÉTÉ" finds "été" and "STRASSE" finds "Straße"; NFKC makes ligatures ("ﬁ") and
// full-width letters match their plain forms. Accents are kept: "ete" does not find "été".

/** The form both the searched text and the search terms are put in before comparing. */
export function foldCase(text: string): string {
  // ASCII is its own NFKC form and folds by lower-casing alone: most posts take this fast path.
  if (!/[^\x00-\x7F]/.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}

/** Splits a `q` value into folded terms; white space separates them. */
export function searchTerms(query: string): string[] {
  return foldCase(query).split(/\s+/u).filter((term) => term !== '');
}

/** A term split before its least common letter (searching for a rare first character is much faster), with
 * the bits its character pairs set in a search filter. */
export interface PreparedTerm {
  head: string;
  tail: string;
  /** Pairs of (word index, mask) into a SearchFilter. */
  filter: Uint32Array;
}

/**
 * Which pairs of adjacent characters a text contains, hashed into 4,096 bits (512 bytes a post). A text
 * lacking any pair of a term cannot contain the term, so most posts are ruled out without reading them.
 */
export type SearchFilter = Uint32Array;

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

function termFilter(term: string): Uint32Array {
  const masks = new Map<number, number>();
  for (let index = 1; index < term.length; index += 1) {
    const bit = pairBit(term.charCodeAt(index - 1), term.charCodeAt(index));
    masks.set(bit >>> 5, (masks.get(bit >>> 5) ?? 0) | (1 << (bit & 31)));
  }
  return Uint32Array.from([...masks].flat());
}

// Letters by frequency in running text, most common first; anything else counts as rare.
const letterOrder = 'etaoinsrhldcumfpgwybvkxjqz';
const COMMON_RANKS = 9;

function rarity(character: string): number {
  const rank = letterOrder.indexOf(character);
  return rank === -1 ? letterOrder.length : rank;
}

/** Prepares a folded term for `matchesAllTerms`. */
export function prepareTerm(term: string): PreparedTerm {
  let pivot = 0;
  for (let index = 1; index < term.length; index += 1) {
    if (rarity(term[index]!) > rarity(term[pivot]!)) pivot = index;
  }
  const filter = termFilter(term);
  if (rarity(term[pivot]!) < COMMON_RANKS) return { head: '', tail: term, filter };
  return { head: term.slice(0, pivot), tail: term.slice(pivot), filter };
}

/** Every term occurs in the folded text (as a substring, like String.prototype.includes). */
export function matchesAllTerms(foldedText: string, filter: SearchFilter, terms: readonly PreparedTerm[]): boolean {
  for (const term of terms) if (!mayContain(filter, term.filter)) return false;
  for (const term of terms) if (!occurs(foldedText, term)) return false;
  return true;
}

function mayContain(filter: SearchFilter, masks: Uint32Array): boolean {
  for (let index = 0; index < masks.length; index += 2) {
    // Bitwise operators give signed 32-bit results: test for missing bits rather than compare with the mask.
    if ((masks[index + 1]! & ~filter[masks[index]!]!) !== 0) return false;
  }
  return true;
}

function occurs(text: string, { head, tail }: PreparedTerm): boolean {
  if (head === '') return text.includes(tail);
  let from = head.length;
  for (;;) {
    const index = text.indexOf(tail, from);
    if (index === -1) return false;
    if (text.startsWith(head, index - head.length)) return true;
    from = index + 1;
  }
}
