// The plain scan docs/blog.md describes for `q`: every post whose folded text contains every folded term
// (String.prototype.includes). It is the reference the index's tests compare against, and what judges a post no
// index holds (catalog/query.ts selectPage).

/** A post as `q` sees it. */
export interface Searchable {
  /** The folded title and Markdown body (PostVersion.searchText). */
  readonly searchText: string;
  /**
   * What names this searchText from one start to the next (its file and the file's stamp), so that its words can
   * be kept in data_dir (search-words-file.ts); absent when it does not come from a file.
   */
  readonly searchKey?: string | undefined;
}

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
