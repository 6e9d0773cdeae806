// JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of the 20 newest published primary versions, with the
// fields docs/blog.md "Feeds and sitemap" names; authors[].name is the effective fediverse_creator.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';
import { publicApiUrl, publicPostUrl } from './public-url.js';
import { FEED_LENGTH } from './rss.js';

/** The feed as a plain object, ready for JSON.stringify; `html` renders a post. */
export function createJsonFeed(catalog: Catalog, html: (entry: CatalogEntry) => string): Record<string, unknown> {
  const { site } = catalog;
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: site.title,
    home_page_url: site.base_url,
    feed_url: publicApiUrl(catalog, '/feed.json'),
    description: site.description,
    language: site.language,
    items: catalog.primaries.slice(0, FEED_LENGTH).map((entry) => createItem(catalog, entry, html(entry))),
  };
}

function createItem(catalog: Catalog, entry: CatalogEntry, html: string): Record<string, unknown> {
  const { post, fediverseCreator } = entry;
  const url = publicPostUrl(catalog, entry);
  return {
    id: url,
    url,
    title: post.title,
    content_html: html,
    summary: post.excerpt,
    date_published: post.date.rfc3339,
    ...(post.updated ? { date_modified: post.updated.rfc3339 } : {}),
    tags: post.tags,
    ...(post.cover ? { image: post.cover.url } : {}),
    ...(fediverseCreator ? { authors: [{ name: fediverseCreator }] } : {}),
  };
}
