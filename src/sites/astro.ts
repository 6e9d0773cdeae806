// `postbox/astro` (docs/site-generators.md "Astro"): a content loader for `defineCollection`. Each published version
// is an entry: its id the slug (`slug/lang` for a translation), its data the API's fields, its Markdown in `body`,
// its HTML in `rendered.html`. Incremental: Astro keeps the entries and the loader's meta store between builds, so a
// build reads each listing page (a 304 when it is unchanged) and fetches only the versions whose listing changed.
import type { Loader, LoaderContext } from 'astro/loaders';
import type { Post } from '../client/api-types.js';
import { fetchPost, listVersions, type ListedPage, type ListingMemory } from './blog-listing.js';

export interface PostboxLoaderOptions {
  /** The blog's root, as configured (`[blog] public_url`): the API is under `<url>/api/blog`. */
  url: string;
  /** Only the versions in this language (and posts marked `all_langs`), each under its slug. */
  lang?: string;
  /** The fetch to use: the global one unless given. */
  fetch?: typeof fetch;
}

/** What an entry's `data` holds: the API's post, without its Markdown (`body`) and HTML (`rendered.html`). */
export type PostboxEntryData = Omit<Post, 'body' | 'html'>;

/** The loader of the blog at `url`. */
export function postboxLoader(options: PostboxLoaderOptions): Loader {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return {
    name: 'postbox',
    async load({ store, meta, parseData, generateDigest, logger }: LoaderContext) {
      const versions = await listVersions({ url: options.url, lang: options.lang, fetch: send, memory: pagesIn(meta), digest: generateDigest });
      const listed = new Set<string>();
      let fetched = 0;
      for (const version of versions) {
        listed.add(version.id);
        const digest = version.version;
        if (store.get(version.id)?.digest === digest) continue;
        const { body, html, ...fields } = await fetchPost(version, send);
        const data = await parseData({ id: version.id, data: fields as PostboxEntryData & Record<string, unknown> });
        store.set({ id: version.id, data, body, digest, rendered: { html } });
        fetched += 1;
      }
      let removed = 0;
      for (const id of store.keys()) {
        if (!listed.has(id)) {
          store.delete(id);
          removed += 1;
        }
      }
      logger.info(`${versions.length} posts from ${options.url}: ${fetched} fetched, ${removed} removed`);
    },
  };
}

/** The listing pages of the last build, in the meta store under `page:<number>`. */
function pagesIn(meta: LoaderContext['meta']): ListingMemory {
  return {
    page(number) {
      const saved = meta.get(`page:${number}`);
      return saved === undefined ? undefined : (JSON.parse(saved) as ListedPage);
    },
    remember(number, page) {
      meta.set(`page:${number}`, JSON.stringify(page));
    },
  };
}
