// What the History pages read (docs/admin.md "Posts in git"): the recorded versions of one post file, newest first,
// and the text of each. An adapter carries it out (adapters/git/git-history.ts: `git log --follow`, `git show`).

/** One recorded version of a post: the change that made it. */
export interface HistoryEntry {
  /** The change's full id (a commit id). */
  id: string;
  /** The short form people read and messages quote ("Restore posts/hello.md to 1a2b3c4"). */
  shortId: string;
  /** When it was made, milliseconds since the epoch. */
  at: number;
  author: string;
  /** What was done, as recorded ("Edit posts/hello.md"). */
  message: string;
  /** The post's file in that version, relative to content_dir (a post moved into its folder had another). */
  file: string;
}

export interface PostHistory {
  /**
   * The versions of `file` (relative to content_dir), following moves, newest first, at most `limit`; none from
   * before the path was last created (a deleted post that had the name is another post).
   */
  entries(file: string, limit: number): Promise<HistoryEntry[]>;
  /** The text of `file` in the version `id`, or undefined when that version has no such file (it was deleted). */
  textAt(id: string, file: string): Promise<string | undefined>;
}
