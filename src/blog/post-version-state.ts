// What the administration interface lists for every post file (docs/admin.md "Posts"): read-only, built
// by the blog service from the files it loaded and the same visibility rule as the API.

/**
 * The state of one post file:
 * - `published`: served by the API now;
 * - `draft`: `draft = true` in its front matter (whatever its date);
 * - `scheduled`: not a draft, but its `date` is still to come; it is published at that moment;
 * - `broken`: skipped, and `reason` says why (the text of its `post_skipped` log line).
 */
export type PostState = 'published' | 'draft' | 'scheduled' | 'broken';

/** One post file (one version of one slug in one language), as `BlogService.listAllVersions()` gives it. */
export interface PostVersionState {
  /** Path relative to blog.content_dir, `/`-separated: `hello.md`, `hello.fr.md`, `hello/index.md`. */
  file: string;
  /** The slug it serves (front matter `slug`, else the file name; for a broken file, from the file name). */
  slug: string;
  /** Canonical language code (front matter `lang`, else the file-name suffix, else site.language). */
  language: string;
  /** Absent for a broken file whose front matter could not be read. */
  title?: string;
  /** `date` as written, normalised: `YYYY-MM-DD` (midnight UTC) or RFC 3339 with its offset; absent like title. */
  date?: string;
  /** Front matter `author`, trimmed; absent when there is none (or, like title, when it could not be read). */
  author?: string;
  /** Front matter `tags`, for the list's search; absent when the file could not be read. */
  tags?: readonly string[];
  state: PostState;
  /** Only for `broken`: why the file is skipped, e.g. `date is required` or `duplicate of a/index.md (...)`. */
  reason?: string;
}
