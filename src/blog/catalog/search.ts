// `q` terms: the query folded (text/fold-case.ts) and split on white space; catalog/search-index.ts finds them.
import { foldCase } from '../text/fold-case.js';

/** Splits a `q` value into folded terms; white space separates them. */
export function searchTerms(query: string): string[] {
  return foldCase(query).split(/\s+/u).filter((term) => term !== '');
}
