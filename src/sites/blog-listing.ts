// What a site generator's build reads of the blog (docs/site-generators.md "How a build stays small"): every page of
// `GET /api/blog/posts`, asked with the ETag of the last build (a page unchanged is a 304 and its versions are taken
// from the last build), and from it every published version with what tells whether it changed since. Fetch only:
// no package, no `node:` module, so the Astro loader and the Eleventy plugin share it.
import type { Post, PostsPage, PostSummary } from '../client/api-types.js';

/** The largest page the API gives (docs/blog.md "`/posts` parameters"): the fewest requests. */
export const LISTING_PAGE_SIZE = 100;

/** One published version as a build sees it. */
export interface ListedVersion {
  /** `slug`, or `slug/lang` for a translation of the primary version (with `lang`, always `slug`). */
  id: string;
  /** The API address of the version, absolute. */
  url: string;
  /** A digest that changes whenever anything the build would show of the version changes: its content or its summary. */
  version: string;
}

/** A listing page as the last build read it. */
export interface ListedPage {
  etag: string;
  versions: ListedVersion[];
  hasNext: boolean;
}

/** Where the pages of the last build are kept (Astro's meta store, the Eleventy plugin's cache file). */
export interface ListingMemory {
  page(number: number): ListedPage | undefined;
  remember(number: number, page: ListedPage): void;
}

export interface ListingOptions {
  /** The blog's root, as configured (`[blog] public_url`): the API is under `<url>/api/blog`. */
  url: string;
  /** Only the versions in this language (the listing's `lang`), each under its slug. */
  lang?: string | undefined;
  fetch: typeof fetch;
  memory: ListingMemory;
  /** A short digest of a text: what is kept of each version (Astro's generateDigest, or a hash). */
  digest(text: string): string;
}

/** Every published version, reading each listing page once. */
export async function listVersions({ url, lang, fetch: send, memory, digest }: ListingOptions): Promise<ListedVersion[]> {
  const versions: ListedVersion[] = [];
  for (let number = 1; ; number += 1) {
    const query = new URLSearchParams({ limit: String(LISTING_PAGE_SIZE), page: String(number), ...(lang === undefined ? {} : { lang }) });
    const address = apiAddress(url, `/api/blog/posts?${query}`);
    const known = memory.page(number);
    const response = await send(address, { headers: { accept: 'application/json', ...(known ? { 'if-none-match': known.etag } : {}) } });
    let page: ListedPage;
    if (response.status === 304 && known) page = known;
    else {
      if (!response.ok) throw new Error(`GET ${address} answered ${response.status}`);
      const body = (await response.json()) as PostsPage;
      page = { etag: response.headers.get('etag') ?? '', versions: body.posts.flatMap((summary) => versionsOf(url, summary, lang, digest)), hasNext: body.has_next };
      if (page.etag !== '') memory.remember(number, page);
    }
    versions.push(...page.versions);
    if (!page.hasNext) return versions;
  }
}

/** A summary's version, and without `lang` each of its translations (by their digests). */
function versionsOf(url: string, summary: PostSummary, lang: string | undefined, digest: (text: string) => string): ListedVersion[] {
  const own = { id: summary.slug, url: apiAddress(url, summary.url), version: digest(JSON.stringify(summary)) };
  if (lang !== undefined) return [own];
  // A translation's entry shows its own content and what the primary version's summary says of the slug.
  const translations = Object.entries(summary.translations).map(([translation, path]) => ({
    id: `${summary.slug}/${translation}`,
    url: apiAddress(url, path),
    version: digest(JSON.stringify([summary.translation_digests[translation] ?? null, summary])),
  }));
  return [own, ...translations];
}

/** A version's post, with its HTML. */
export async function fetchPost(version: ListedVersion, send: typeof fetch): Promise<Post> {
  const response = await send(version.url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${version.url} answered ${response.status}`);
  return (await response.json()) as Post;
}

/** `path` (`/api/blog/...`) on the blog at `url`. */
export function apiAddress(url: string, path: string): string {
  return `${url.replace(/\/+$/, '')}${path}`;
}
