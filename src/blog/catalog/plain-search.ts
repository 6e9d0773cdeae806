// The plain scan docs/blog.md describes for `q`: every post whose folded text contains every folded term
// (String.prototype.includes). It answers `q` while the index of the current catalog is being built
// (catalog/search-indexer.ts), and it is the reference the index's tests compare against.
import type { Searchable } from './search-index.js';

/** Whether a post's searchText contains every term. */
export function containsEveryTerm(post: Searchable, terms: readonly string[]): boolean {
  return terms.every((term) => post.searchText.includes(term));
}

/** Positions in `posts` of the posts whose searchText contains every term, in the order given. */
export function plainSearch(posts: readonly Searchable[], terms: readonly string[]): number[] {
  const positions: number[] = [];
  posts.forEach((post, position) => {
    if (containsEveryTerm(post, terms)) positions.push(position);
  });
  return positions;
}
