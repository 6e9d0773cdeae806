// Case-insensitive matching for `q` and `tag` (contract section 4: "case-insensitively (Unicode)").
//
// Folding is NFKC, then upper case, then lower case. The round trip through upper case applies Unicode's
// full case mappings, so "ÉTÉ" finds "été" and "STRASSE" finds "Straße"; NFKC makes ligatures ("ﬁ") and
// full-width letters match their plain forms. Accents are kept: "ete" does not find "été".

/** The form both the searched text and the search terms are put in before comparing. */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}

/** Splits a `q` value into folded terms; white space separates them. */
export function searchTerms(query: string): string[] {
  return foldCase(query).split(/\s+/u).filter((term) => term !== '');
}

/** Every term occurs in the folded text. */
export function matchesAllTerms(foldedText: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!foldedText.includes(term)) return false;
  return true;
}
