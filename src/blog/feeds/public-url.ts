// Public addresses of posts and of the API (docs/configuration.md "[site] and [blog]", docs/blog.md "Feeds and
// sitemap"): post_url / translation_url on site.base_url for pages, `<blog.public_url>/api/blog` for the API itself
// (its feeds and the images beside posts), blog.public_url being site.base_url unless the API is elsewhere.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';

/** The public page of a version: post_url for the primary version, translation_url for the others. */
export function publicPostUrl(catalog: Catalog, entry: CatalogEntry): string {
  const template = entry.primary ? catalog.blog.post_url : catalog.blog.translation_url;
  const path = template
    .replaceAll('{slug}', encodeURIComponent(entry.post.slug))
    .replaceAll('{lang}', encodeURIComponent(entry.post.lang));
  if (/^https?:\/\//i.test(path)) return path;
  return `${catalog.site.base_url}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** An address of the API under `<blog.public_url>/api/blog`. */
export function publicApiUrl(catalog: Catalog, path: string): string {
  return `${catalog.blog.public_url || catalog.site.base_url}/api/blog${path}`;
}

/**
 * Where the images beside a version live (docs/blog.md "Images beside a post"): `<public_url>/api/blog/media/<slug>/`
 * for a post in a folder (`<folder>/index.md`), null for a `<slug>.md` post, which has no folder of its own.
 */
export function mediaBaseUrl(catalog: Catalog, entry: CatalogEntry): string | null {
  if (!entry.post.file.includes('/')) return null;
  return publicApiUrl(catalog, `/media/${encodeURIComponent(entry.post.slug)}/`);
}
