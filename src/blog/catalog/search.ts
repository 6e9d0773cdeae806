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

/** A term split before its least common letter: searching for a rare first character is much faster. */
export interface PreparedTerm {
  head: string;
  tail: string;
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
  if (rarity(term[pivot]!) < COMMON_RANKS) return { head: '', tail: term };
  return { head: term.slice(0, pivot), tail: term.slice(pivot) };
}

/** Every term occurs in the folded text (as a substring, like String.prototype.includes). */
export function matchesAllTerms(foldedText: string, terms: readonly PreparedTerm[]): boolean {
  for (const term of terms) if (!occurs(foldedText, term)) return false;
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
