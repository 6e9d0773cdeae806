// The XML sitemap (sitemaps.org 0.9): every published version, lastmod from `updated` or `date`, and for
// translated posts an xhtml:link hreflang alternate for every version, itself included (docs/blog.md "Feeds and
// sitemap" and "Translations").
// A blog without published posts lists only the site's home page, so that the document stays valid.
import type { Catalog, CatalogEntry } from '../catalog/catalog.js';
import { compareText } from '../catalog/catalog.js';
import { publicPostUrl } from './public-url.js';
import { escapeXml } from './xml.js';

/**
 * The sitemap document; slugs newest first, each slug's primary version before its translations. `memo`
 * keeps each entry's <url> element across content versions (an entry object only lives while its slug's
 * files are unchanged).
 */
export function renderSitemap(catalog: Catalog, memo: WeakMap<CatalogEntry, string> = new WeakMap()): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const primary of catalog.primaries) {
    const group = catalog.groups.get(primary.post.slug)!;
    const others = [...group.versions.values()].filter((entry) => entry !== primary).sort((a, b) => compareText(a.post.lang, b.post.lang));
    const versions = [primary, ...others];
    for (const entry of versions) {
      let element = memo.get(entry);
      if (element === undefined) memo.set(entry, (element = renderUrl(catalog, entry, versions.length > 1 ? versions : [])));
      lines.push(element);
    }
  }
  // The sitemaps.org schema wants at least one <url>: with no published post yet, list the site's home page.
  if (catalog.primaries.length === 0) lines.push(`<url>\n<loc>${escapeXml(`${catalog.site.base_url}/`)}</loc>\n</url>`);
  lines.push('</urlset>', '');
  return lines.join('\n');
}

function renderUrl(catalog: Catalog, entry: CatalogEntry, alternates: readonly CatalogEntry[]): string {
  const parts = [
    '<url>',
    `<loc>${escapeXml(publicPostUrl(catalog, entry))}</loc>`,
    `<lastmod>${(entry.post.updated ?? entry.post.date).text}</lastmod>`,
    ...alternates.map(
      (version) =>
        `<xhtml:link rel="alternate" hreflang="${escapeXml(version.post.lang)}" href="${escapeXml(publicPostUrl(catalog, version))}"/>`,
    ),
    '</url>',
  ];
  return parts.join('\n');
}
