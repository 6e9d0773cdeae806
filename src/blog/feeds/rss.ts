// RSS 2.0 of the 20 newest published primary versions (docs/blog.md "Feeds and sitemap"): dc:creator carries
// the effective fediverse_creator, content:encoded the HTML, atom:link the feed's own address.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';
import { publicApiUrl, publicPostUrl } from './public-url.js';
import { escapeXml } from './xml.js';

/** Items in each feed (docs/blog.md "What the API answers"). */
export const FEED_LENGTH = 20;

/** The feed document; `html` renders a post; `buildTime` is the lastBuildDate of a feed without posts. */
export function renderRss(catalog: Catalog, html: (entry: CatalogEntry) => string, buildTime: Date): string {
  const entries = catalog.primaries.slice(0, FEED_LENGTH);
  const { site } = catalog;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${escapeXml(site.title)}</title>`,
    `<link>${escapeXml(site.base_url)}</link>`,
    `<description>${escapeXml(site.description)}</description>`,
    `<language>${escapeXml(site.language)}</language>`,
    `<atom:link href="${escapeXml(publicApiUrl(catalog, '/feed.xml'))}" rel="self" type="application/rss+xml"/>`,
    `<lastBuildDate>${lastChange(entries, buildTime).toUTCString()}</lastBuildDate>`,
    ...entries.map((entry) => renderItem(catalog, entry, html(entry))),
    '</channel>',
    '</rss>',
    '',
  ];
  return lines.join('\n');
}

function renderItem(catalog: Catalog, entry: CatalogEntry, html: string): string {
  const { post, fediverseCreator } = entry;
  const url = escapeXml(publicPostUrl(catalog, entry));
  const parts = [
    '<item>',
    `<title>${escapeXml(post.title)}</title>`,
    `<link>${url}</link>`,
    `<guid isPermaLink="true">${url}</guid>`,
    // RFC 822 date (RSS 2.0 "Elements of <item>"); toUTCString writes "Wed, 01 May 2024 10:00:00 GMT".
    `<pubDate>${new Date(post.date.time).toUTCString()}</pubDate>`,
    `<description>${escapeXml(post.excerpt)}</description>`,
    `<content:encoded>${escapeXml(html)}</content:encoded>`,
    ...post.tags.map((tag) => `<category>${escapeXml(tag)}</category>`),
    ...(fediverseCreator ? [`<dc:creator>${escapeXml(fediverseCreator)}</dc:creator>`] : []),
    '</item>',
  ];
  return parts.join('\n');
}

/** The newest date or update among the items, so that the feed's bytes only change with its content. */
function lastChange(entries: readonly CatalogEntry[], fallback: Date): Date {
  if (entries.length === 0) return fallback;
  const newest = Math.max(...entries.map(({ post }) => Math.max(post.date.time, post.updated?.time ?? 0)));
  return new Date(newest);
}
