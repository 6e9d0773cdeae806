// The reference for the `q` index: the plain scan docs/blog.md describes, every post whose folded text
// contains every folded term (String.prototype.includes), in the order given.
import type { Searchable } from '../../src/blog/catalog/search-index.js';

/** Positions in `posts` of the posts whose searchText contains every term. */
export function plainSearch(posts: readonly Searchable[], terms: readonly string[]): number[] {
  const positions: number[] = [];
  posts.forEach((post, position) => {
    if (terms.every((term) => post.searchText.includes(term))) positions.push(position);
  });
  return positions;
}
