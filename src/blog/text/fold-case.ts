// Case-insensitive matching for `q` and `tag` (docs/blog.md "/posts parameters": how `q` compares text).
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
