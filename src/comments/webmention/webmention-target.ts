// The post a webmention's target names (docs/comments.md "Webmentions"): a published version's public page on
// site.base_url (post_url, or translation_url for a translation), compared after normalising, whose comments are on.
import type { BlogSnapshot } from '../../blog/http/snapshot.js';
import type { Catalog } from '../../blog/catalog/catalog.js';
import { publicPostUrl } from '../../blog/feeds/public-url.js';
import type { CommentedPost } from '../commented-post.js';
import { normaliseUrl } from './webmention-source.js';

/** The post version whose public page is `target` (normalised), or undefined. */
export type FindTargetPost = (target: string) => CommentedPost | undefined;

/** Looks targets up in the snapshot served now; each catalog's table of page URLs is built once. */
export function createTargetFinder(current: () => BlogSnapshot): FindTargetPost {
  const tables = new WeakMap<Catalog, Map<string, CommentedPost>>();
  const tableOf = (catalog: Catalog) => {
    let table = tables.get(catalog);
    if (!table) {
      table = new Map();
      for (const entry of catalog.published) {
        const { post } = entry;
        if (!post.comments) continue;
        const url = normaliseUrl(publicPostUrl(catalog, entry));
        if (url) table.set(url, { slug: post.slug, lang: post.lang, dateMs: post.date.time, author: post.author });
      }
      tables.set(catalog, table);
    }
    return table;
  };
  return (target) => tableOf(current().catalog).get(target);
}
