// `postbox/eleventy` (docs/site-generators.md "Eleventy"): a plugin adding the global data `postbox`, the blog's
// posts with their HTML. Cached on disk between builds: the listing pages' ETags and each version's post, so a build
// reads each listing page (a 304 when unchanged) and fetches only the versions whose listing changed.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Post } from '../client/api-types.js';
import { fetchPost, listVersions, type ListedPage } from './blog-listing.js';

export interface PostboxPluginOptions {
  /** The blog's root, as configured (`[blog] public_url`): the API is under `<url>/api/blog`. */
  url: string;
  /** Only the versions in this language (and posts marked `all_langs`). */
  lang?: string;
  /** The cache's folder, from the folder Eleventy runs in: `.cache/postbox` unless given. */
  cacheDir?: string;
  fetch?: typeof fetch;
}

/** A published version: the API's post (`html` included) and its id, `slug` or `slug/lang`. */
export type PostboxPost = Post & { id: string };

/** The global data `postbox`. */
export interface PostboxData {
  /** The primary versions (each version in `lang`, with that option), newest first. */
  posts: PostboxPost[];
  /** The other versions, each under `slug/lang`. */
  translations: PostboxPost[];
}

/** What Eleventy hands a plugin, as far as this one uses it. */
interface EleventyConfig {
  addGlobalData(name: string, data: () => Promise<PostboxData>): unknown;
}

interface CacheFile {
  format: 1;
  url: string;
  lang: string | null;
  pages: Record<string, ListedPage>;
  posts: Record<string, { version: string; post: PostboxPost }>;
}

/** The plugin: `eleventyConfig.addPlugin(postbox, { url })`. */
export default function postbox(eleventyConfig: EleventyConfig, options: PostboxPluginOptions): void {
  if (typeof options?.url !== 'string') throw new TypeError('postbox/eleventy needs { url }: the blog\'s public_url');
  // Eleventy computes its global data once per build, however many templates read it: each build of a watching
  // Eleventy reads the listings again.
  eleventyConfig.addGlobalData('postbox', () => loadPosts(options));
}

/** The posts of the blog at `options.url`, through the cache file. */
export async function loadPosts(options: PostboxPluginOptions): Promise<PostboxData> {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const file = path.resolve(options.cacheDir ?? '.cache/postbox', 'posts.json');
  const lang = options.lang ?? null;
  const saved = await readCache(file);
  const cache: CacheFile = saved && saved.url === options.url && saved.lang === lang ? saved : { format: 1, url: options.url, lang, pages: {}, posts: {} };
  const pages: Record<string, ListedPage> = {};
  const versions = await listVersions({
    url: options.url,
    lang: options.lang,
    fetch: send,
    digest: (text) => createHash('sha256').update(text).digest('base64url'),
    memory: { page: (number) => cache.pages[number], remember: (number, page) => void (pages[number] = page) },
  });
  const posts: CacheFile['posts'] = {};
  for (const version of versions) {
    const known = cache.posts[version.id];
    posts[version.id] = known?.version === version.version ? known : { version: version.version, post: { ...(await fetchPost(version, send)), id: version.id } };
  }
  await writeCache(file, { ...cache, pages: { ...cache.pages, ...pages }, posts });
  const all = versions.map((version) => posts[version.id]!.post);
  return { posts: all.filter((post) => !post.id.includes('/')), translations: all.filter((post) => post.id.includes('/')) };
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    const cache = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    return cache.format === 1 ? cache : undefined;
  } catch {
    // None yet, or one that cannot be read: everything is fetched and it is written again.
    return undefined;
  }
}

/** Written whole and renamed over the old one: a build stopped halfway leaves the last complete cache. */
async function writeCache(file: string, cache: CacheFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.new`, JSON.stringify(cache));
  await rename(`${file}.new`, file);
}
