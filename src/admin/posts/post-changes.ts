// Where the changes /admin makes to content_dir are recorded (docs/admin.md "Posts in git"): each write (a save,
// a publish, a delete, an image...) is one change, named by what was done and by whom. The post files declare what
// they need here; an adapter carries it out (adapters/git/: one commit each, pushed to a shared remote).

/** What a change did, which names it in the history ("Edit posts/hello.md", "Publish ..."). */
export type ChangeAction = 'create' | 'edit' | 'publish' | 'unpublish' | 'translate' | 'delete' | 'upload_image' | 'delete_image' | 'restore';

/** One write of /admin, as it is recorded. */
export interface PostChange {
  action: ChangeAction;
  /** The file the change is about (relative to content_dir, `/`-separated): the post, or the image. */
  subject: string;
  /** Every file the write created, changed, moved away or removed, relative to content_dir. */
  paths: readonly string[];
  /** The user name of the person who made it; absent: Postbox itself. */
  author?: string;
  /** For `restore`: the version put back, as the history names it. */
  restored?: string;
}

export type RecordOutcome =
  | { ok: true }
  /**
   * Another change to the same lines reached the shared copy first: that one is kept, this one is not, and
   * content_dir now holds the other (the files of `paths` as it has them).
   */
  | { ok: false; kind: 'superseded' };

export interface PostChangeLog {
  /**
   * Runs `task` alone: no other write of /admin and nothing the log itself does to content_dir (taking in what
   * others recorded) runs meanwhile, so a check and the write it allows see the same files.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Records `change` as the files are now; called inside `exclusive`, after the write. */
  record(change: PostChange): Promise<RecordOutcome>;
}
