// What the posts list shows of every post file and version: its state, and why a broken one is skipped. The blog
// service knows it (it reads every file); the composition root hands the listing to the posts pages.

export type VersionState = 'published' | 'draft' | 'scheduled' | 'broken';

export interface VersionListing {
  /** Relative to content_dir, `/`-separated. */
  file: string;
  slug: string;
  language: string;
  title?: string;
  /** RFC 3339. */
  date?: string;
  state: VersionState;
  /** Why a broken version is skipped. */
  reason?: string;
}

/** The listing now: every version the blog read, in file order. */
export type ListVersions = () => readonly VersionListing[] | Promise<readonly VersionListing[]>;
