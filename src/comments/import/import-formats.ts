// The comment exports `postbox comments import` reads (docs/comments.md "Import and export"), each turned into the
// same flat list: Disqus's XML export, a WordPress export (WXR) and a remark42 backup (JSON lines).
import type * as Cheerio from 'cheerio';
import { lazyModule } from '../../kit/lazy-module.js';

const cheerio = lazyModule<typeof Cheerio>('cheerio');

export const IMPORT_FORMATS = ['disqus', 'wordpress', 'remark42'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One comment of an export, as its source names it. */
export interface SourceComment {
  /** The source's own id: what the imported id is derived from. */
  sourceId: string;
  parentSourceId: string | null;
  /** The address of the page it was written on. */
  pageUrl: string;
  name: string;
  email: string | null;
  url: string | null;
  /** The comment as HTML, as the sources keep it. */
  html: string;
  /** RFC 3339, UTC. */
  createdAt: string;
  /** Why it is not imported: taken for spam, deleted, or never approved at the source. */
  skip?: 'spam' | 'deleted' | 'unapproved';
}

/** The comments of `content` in `format`. */
export async function readSourceComments(format: ImportFormat, content: string): Promise<SourceComment[]> {
  if (format === 'remark42') return readRemark42(content);
  const $ = cheerio().load(content, { xml: true });
  return format === 'disqus' ? readDisqus($) : readWordPress($);
}

const text = (value: string | undefined): string => (value ?? '').trim();
const orNull = (value: string | undefined): string | null => text(value) || null;

/** Disqus: `<thread dsq:id>` with its `<link>`, and `<post dsq:id>` naming its thread and parent by id. */
function readDisqus($: Cheerio.CheerioAPI): SourceComment[] {
  const links = new Map<string, string>();
  $('disqus > thread').each((_, element) => {
    links.set($(element).attr('dsq:id') ?? '', text($(element).children('link').text()));
  });
  const comments: SourceComment[] = [];
  $('disqus > post').each((_, element) => {
    const post = $(element);
    const field = (name: string) => post.children(name).first().text();
    const author = post.children('author');
    comments.push({
      sourceId: post.attr('dsq:id') ?? '',
      parentSourceId: post.children('parent').attr('dsq:id') ?? null,
      pageUrl: links.get(post.children('thread').attr('dsq:id') ?? '') ?? '',
      name: text(author.children('name').text()) || 'Anonymous',
      email: orNull(author.children('email').text()),
      url: null,
      html: field('message'),
      createdAt: new Date(text(field('createdAt'))).toISOString(),
      skip: text(field('isSpam')) === 'true' ? 'spam' : text(field('isDeleted')) === 'true' ? 'deleted' : undefined,
    });
  });
  return comments;
}

/** WordPress: each `<item>`'s `<link>` and its `<wp:comment>`s; times from `comment_date_gmt`. */
function readWordPress($: Cheerio.CheerioAPI): SourceComment[] {
  const comments: SourceComment[] = [];
  $('item').each((_, item) => {
    const pageUrl = text($(item).children('link').text());
    $(item)
      .children('wp\\:comment')
      .each((__, element) => {
        const field = (name: string) => text($(element).children(`wp\\:${name}`).text());
        const type = field('comment_type');
        // Pingbacks and trackbacks are not comments a person wrote.
        if (type !== '' && type !== 'comment') return;
        const approved = field('comment_approved');
        const parent = field('comment_parent');
        comments.push({
          sourceId: field('comment_id'),
          parentSourceId: parent === '' || parent === '0' ? null : parent,
          pageUrl,
          name: field('comment_author') || 'Anonymous',
          email: field('comment_author_email') || null,
          url: field('comment_author_url') || null,
          html: $(element).children('wp\\:comment_content').text(),
          createdAt: new Date(`${field('comment_date_gmt').replace(' ', 'T')}Z`).toISOString(),
          skip: approved === '1' ? undefined : approved === 'spam' ? 'spam' : approved === 'trash' ? 'deleted' : 'unapproved',
        });
      });
  });
  return comments;
}

interface Remark42Comment {
  id?: string;
  pid?: string;
  text?: string;
  user?: { name?: string; email?: string };
  locator?: { url?: string };
  time?: string;
  delete?: boolean;
}

/** remark42: a first line with users and posts, then one JSON comment a line, each naming its page and parent. */
function readRemark42(content: string): SourceComment[] {
  const comments: SourceComment[] = [];
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as Remark42Comment & { version?: number };
    if (record.id === undefined || record.locator === undefined) continue;
    comments.push({
      sourceId: record.id,
      parentSourceId: record.pid || null,
      pageUrl: record.locator.url ?? '',
      name: record.user?.name?.trim() || 'Anonymous',
      email: record.user?.email?.trim() || null,
      url: null,
      html: record.text ?? '',
      createdAt: new Date(record.time ?? '').toISOString(),
      skip: record.delete ? 'deleted' : undefined,
    });
  }
  return comments;
}
