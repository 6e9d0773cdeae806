// One parsed post file: a version of a slug in one language, as the catalog and the feeds use it.
import type { PostDate } from './dates.js';

export interface PostCover {
  url: string;
  alt: string | null;
}

export interface PostVersion {
  /** Path relative to content_dir, `/`-separated; names the file in warnings. */
  file: string;
  slug: string;
  /** Canonical language code (front matter `lang`, else the file-name suffix, else site.language). */
  lang: string;
  /** Whether the file name carries a language suffix (the primary-version rule looks at this). */
  hasLanguageSuffix: boolean;
  title: string;
  date: PostDate;
  updated: PostDate | null;
  draft: boolean;
  tags: string[];
  allLangs: boolean;
  /** Front matter `raw_html`: the HTML is not sanitised (docs/blog.md "Raw HTML"). */
  rawHtml: boolean;
  /** Front matter `comments`: false closes the post's comments (docs/comments.md). */
  comments: boolean;
  /** Front matter `newsletter`: false keeps the post out of the newsletter's automations (docs/newsletter.md). */
  newsletter: boolean;
  /** The post's own values; the site's defaults are applied by the catalog. */
  author: string | null;
  fediverseCreator: string | null;
  cover: PostCover | null;
  /** Derived from the Markdown on first use (loading 10,000 posts must not wait for every excerpt). */
  readonly excerpt: string;
  readonly readingTime: number;
  /**
   * A digest of the version's content, its front matter as read and its Markdown (docs/blog.md "What the API
   * answers"): another digest means another post, so a site's build sees an edit from the listings alone.
   */
  readonly digest: string;
  /**
   * Raw Markdown after the front matter; rendered to HTML when first needed (see http/snapshot.ts). Posts loaded
   * from content_dir read it from their file each time (content/body-reader.ts), so read it once per answer.
   */
  readonly body: string;
  /** Case-folded title and body for `q` (catalog/search-index.ts indexes it). */
  searchText: string;
  /** What names searchText from one start to the next, when it comes from a file (catalog/plain-search.ts). */
  readonly searchKey?: string | undefined;
}
