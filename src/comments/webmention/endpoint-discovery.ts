// Where a page takes webmentions (the Webmention Recommendation section 3.1.2, docs/comments.md "Sending"): the
// first Link header with rel="webmention", else the first <link> or <a> element with it, resolved on the page's
// address. Pure: the page comes in fetched.
import type * as Cheerio from 'cheerio';
import { lazyModule } from '../../kit/lazy-module.js';
import type { FetchedPage } from './fetch-page.js';

// Loaded on first use: a start without webmentions does not parse cheerio (docs/performance.md "Blog start-up").
const cheerio = lazyModule<typeof Cheerio>('cheerio');

/** Whether a rel value (space-separated link types, compared without case) holds "webmention". */
function namesWebmention(rel: string): boolean {
  return rel.toLowerCase().split(/\s+/).includes('webmention');
}

/** The targets of Link header lines whose rel holds "webmention", in order (RFC 8288 section 3). */
function linkHeaderTargets(lines: readonly string[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    for (const match of line.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(match[2] ?? '');
      if (rel && namesWebmention(rel[1] ?? rel[2] ?? '')) found.push(match[1]!);
    }
  }
  return found;
}

/** The page's webmention endpoint as an absolute http(s) URL, or undefined when it names none. */
export function discoverEndpoint(page: FetchedPage): string | undefined {
  const resolve = (href: string) => {
    try {
      const url = new URL(href, page.url);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
    } catch {
      return undefined;
    }
  };
  const fromHeader = linkHeaderTargets(page.links)[0];
  if (fromHeader !== undefined) return resolve(fromHeader);
  if (page.contentType !== undefined && !/html/i.test(page.contentType)) return undefined;
  const document = cheerio().load(page.body);
  const element = document('link[href], a[href]')
    .toArray()
    .find((candidate) => namesWebmention(document(candidate).attr('rel') ?? ''));
  // An empty href is the page itself (the Recommendation's test 15).
  return element === undefined ? undefined : resolve(document(element).attr('href') ?? '');
}
