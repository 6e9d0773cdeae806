// The three-way merge of two editors' changes to one post (docs/admin.md "Posts"), line by line with node-diff3.
// Browsers send text areas and hidden fields with CRLF line ends whatever the file uses, so the three texts are
// compared with LF line ends: a line differs by its words, never by its line end.
import { merge } from 'node-diff3';

/**
 * `mine` and `theirs` (both edited from `base`) together, or null where their changes overlap. The result has
 * the line ends of `theirs` (the file on disk): CRLF when it has any, else LF.
 */
export function mergeVersions(mine: string, base: string, theirs: string): string | null {
  const result = merge(unixLines(mine), unixLines(base), unixLines(theirs), { stringSeparator: '\n' });
  if (result.conflict) return null;
  const merged = result.result.join('\n');
  return theirs.includes('\r\n') ? merged.replace(/\n/g, '\r\n') : merged;
}

/** `text` with LF line ends (CRLF and a lone CR become LF). */
export function unixLines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
