// What the posts list shows of every post file and version: the blog service's own listing (its state, and why a
// broken one is skipped). The composition root hands the blog's listAllVersions to the posts pages.
import type { PostVersionState } from '../../blog/post-version-state.js';

export type VersionListing = PostVersionState;

/** The listing now: every version the blog read, in file order. */
export type ListVersions = () => readonly VersionListing[] | Promise<readonly VersionListing[]>;
