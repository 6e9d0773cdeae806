// Which webmentions of the blog's own posts were queued (docs/comments.md "Sending"): per post version, the change
// (a hash of its text) and the targets taken for it. Taking is the step that makes "once per (post, target,
// change)" hold across restarts and replicas: of several processes that take the same target of the same change,
// one gets it. Kept by the comment store: data_dir/comments/webmentions-sent.json, or a PostgreSQL table.

export interface SentLedger {
  /**
   * Of `targets` of version `version` (`<slug>@<lang>`) at `change`, those nobody took before, now taken by the
   * caller; a new change of a version forgets what its earlier change took.
   */
  take(version: string, change: string, targets: readonly string[]): Promise<string[]>;
  /** Gives back targets taken whose webmentions could not be queued, so that the next look takes them again. */
  giveBack(version: string, change: string, targets: readonly string[]): Promise<void>;
}
