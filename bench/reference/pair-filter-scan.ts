// How `q` was answered before the index (src/blog/catalog/search-index.ts), kept for the search bench to run
// side by side: every post scanned, after a filter of its character pairs (pair-filter.ts) ruled most out.
import { createTermFilter, mayContain, type SearchFilter, type TermFilter } from './pair-filter.js';

/** A term split before its least common letter (searching for a rare first character is much faster), with
 * the bits its character pairs set in a search filter. */
export interface PreparedTerm {
  head: string;
  tail: string;
  filter: TermFilter;
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
  const filter = createTermFilter(term);
  if (rarity(term[pivot]!) < COMMON_RANKS) return { head: '', tail: term, filter };
  return { head: term.slice(0, pivot), tail: term.slice(pivot), filter };
}

/** Every term occurs in the folded text (as a substring, like String.prototype.includes). */
export function matchesAllTerms(foldedText: string, filter: SearchFilter, terms: readonly PreparedTerm[]): boolean {
  for (const term of terms) if (!mayContain(filter, term.filter)) return false;
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
