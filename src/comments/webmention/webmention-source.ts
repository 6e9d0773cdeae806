// What a webmention's source says (docs/comments.md "Webmentions"): whether it links to the target, and its
// h-entry (microformats2, read by microformats-parser): author, content, date, and what kind of response it is.
// Pure: the page comes in as text.
import type * as Cheerio from 'cheerio';
import type * as Microformats from 'microformats-parser';
import { lazyModule } from '../../kit/lazy-module.js';
import type { CommentKind } from '../comment-store.js';
import { TEXT_MAX } from '../comment-fields.js';

// Loaded on first use, as in endpoint-discovery.ts.
const cheerio = lazyModule<typeof Cheerio>('cheerio');
const microformats = lazyModule<typeof Microformats>('microformats-parser');
type Parsed = ReturnType<typeof Microformats.mf2>;

/** What a source tells about itself. */
export interface SourceEntry {
  kind: Exclude<CommentKind, 'comment'>;
  author: { name: string; url: string };
  /** The content as text, and as HTML when the h-entry has some (not yet sanitised). */
  text: string;
  html: string | null;
  published: string | null;
}

/** `url` without its fragment, resolved on `base`; undefined when it is not an http(s) URL. */
export function normaliseUrl(url: string, base?: string): string | undefined {
  try {
    const parsed = new URL(url.trim(), base);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** The attributes that make a page link to a URL: links, and what it embeds. */
const LINKING = [
  ['a[href]', 'href'],
  ['area[href]', 'href'],
  ['link[href]', 'href'],
  ['img[src]', 'src'],
  ['audio[src]', 'src'],
  ['video[src]', 'src'],
  ['source[src]', 'src'],
] as const;

/** Every http(s) URL `html` links to, resolved on its <base> or `pageUrl`, without fragments. */
export function linksOf(html: string, pageUrl: string): string[] {
  const page = cheerio().load(html);
  const base = normaliseUrl(page('base[href]').first().attr('href') ?? '', pageUrl) ?? pageUrl;
  const found: string[] = [];
  for (const [selector, attribute] of LINKING) {
    page(selector).each((_, element) => {
      const url = normaliseUrl(page(element).attr(attribute) ?? '', base);
      if (url) found.push(url);
    });
  }
  return found;
}

type Property = Parsed['items'][number]['properties'][string][number];
type Item = Parsed['items'][number];

function isItem(value: Property | undefined): value is Item {
  return typeof value === 'object' && value !== null && 'properties' in value;
}

/** A property's value as text: a string, an item's url or name, or an e-* property's text. */
function textOf(value: Property | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (isItem(value)) return textOf(value.properties.url?.[0]) ?? textOf(value.properties.name?.[0]) ?? (typeof value.value === 'string' ? value.value : undefined);
  if (value && 'html' in value) return value.value;
  if (value && 'alt' in value) return value.value;
  return undefined;
}

/** The first h-entry of the page, looking into children. */
function firstEntry(items: readonly Item[]): Item | undefined {
  for (const item of items) {
    if (item.type?.includes('h-entry')) return item;
    const child = firstEntry(item.children ?? []);
    if (child) return child;
  }
  return undefined;
}

/** The response properties, first match wins (microformats.org "h-entry", the response properties). */
const KIND_PROPERTIES = [
  ['in-reply-to', 'reply'],
  ['like-of', 'like'],
  ['repost-of', 'repost'],
  ['bookmark-of', 'bookmark'],
] as const;

/** Code points of `text` up to `max`. */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * The entry of a source page at `sourceUrl` that links to `target`. Its kind is that of the first response
 * property naming the target (a reply to another page that only mentions this post is a mention); without an
 * h-entry the page is a mention by its host, with the page's <title> as text.
 */
export function readSourceEntry(html: string, sourceUrl: string, target: string): SourceEntry {
  const host = new URL(sourceUrl).host;
  const entry = firstEntry(microformats().mf2(html, { baseUrl: sourceUrl }).items);
  if (!entry) {
    const title = cheerio().load(html)('title').first().text().trim();
    return { kind: 'mention', author: { name: host, url: sourceUrl }, text: cut(title, TEXT_MAX), html: null, published: null };
  }
  const { properties } = entry;
  const names = (name: string) => (properties[name] ?? []).map((value) => normaliseUrl(textOf(value) ?? '', sourceUrl));
  const kind = KIND_PROPERTIES.find(([name]) => names(name).includes(target))?.[1] ?? 'mention';
  const author = properties.author?.[0];
  const authorName = isItem(author) ? textOf(author.properties.name?.[0]) : typeof author === 'string' && !/^https?:/i.test(author) ? author : undefined;
  const authorUrl = isItem(author) ? textOf(author.properties.url?.[0]) : typeof author === 'string' && /^https?:/i.test(author) ? author : undefined;
  const content = properties.content?.[0];
  const text = (content && typeof content === 'object' && 'html' in content ? content.value : textOf(content) ?? textOf(properties.summary?.[0]) ?? '').trim();
  return {
    kind,
    author: { name: cut(authorName?.trim() || host, 100), url: (authorUrl && normaliseUrl(authorUrl, sourceUrl)) || sourceUrl },
    text: cut(text, TEXT_MAX),
    html: content && typeof content === 'object' && 'html' in content ? content.html : null,
    published: textOf(properties.published?.[0]) ?? null,
  };
}
