// The plain scan docs/blog.md describes for `q`: every post whose folded text contains every folded term
// (String.prototype.includes). It answers `q` while the index of the current catalog is being built
// (catalog/search-indexer.ts), up to a page or a time when pressed (catalog/query.ts selectPageInSlices), and it is
// the reference the index's tests compare against.
import type { StepDue } from './step-clock.js';

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

/**
 * The items that `matches`, in order, looked at for `due()`'s time at once (step-clock.ts) with `pause()` between,
 * so that other requests are answered while a scan of 100,000 posts reads their texts. Slices are cut by time, as
 * the index build's steps are: a post judged by its words costs a microsecond, one read from its file a hundred
 * times that. While `held()` says so the scan only pauses. After each pause `stop()` may end the scan (the index
 * is ready and answers instead): the result is then null. `enough(found, looked)`, asked after each item and while
 * held, may end the scan early: the result is then what the first `looked` items gave.
 */
export async function scanInSlices<Item>(
  items: readonly Item[],
  matches: (item: Item) => boolean,
  options: { pause(): Promise<unknown>; stop(): boolean; due: StepDue; held?(): boolean; enough?(found: readonly Item[], looked: number): boolean },
): Promise<Item[] | null> {
  const found: Item[] = [];
  for (let at = 0; at < items.length; at += 1) {
    while (options.held?.()) {
      await options.pause();
      if (options.stop()) return null;
      if (options.enough?.(found, at)) return found;
    }
    if (matches(items[at]!)) found.push(items[at]!);
    if (options.enough?.(found, at + 1)) return found;
    if (at + 1 < items.length && options.due()) {
      await options.pause();
      if (options.stop()) return null;
    }
  }
  return found;
}
