// The excerpt and reading time of a post (docs/blog.md "Markdown").
import type { MarkdownTools } from './markdown.js';

/** Longest excerpt, in characters (code points), ellipsis included. */
export const EXCERPT_MAX_CHARS = 280;
/** Reading speed behind reading_time. */
export const WORDS_PER_MINUTE = 200;

const moreMarker = /<!--\s*more\s*-->/i;

/**
 * The front-matter excerpt, else the text before `<!--more-->`, else the first paragraph; as plain text of at
 * most 280 characters cut at a word.
 */
export function resolveExcerpt(markdown: MarkdownTools, frontMatterExcerpt: string | undefined, body: string, firstParagraph: string): string {
  if (frontMatterExcerpt !== undefined) {
    const excerpt = cutAtWord(markdown.plainText(frontMatterExcerpt), EXCERPT_MAX_CHARS);
    if (excerpt !== '') return excerpt;
  }
  const more = moreMarker.exec(body);
  if (more) {
    const excerpt = cutAtWord(markdown.plainText(body.slice(0, more.index)), EXCERPT_MAX_CHARS);
    if (excerpt !== '') return excerpt;
  }
  return cutAtWord(firstParagraph, EXCERPT_MAX_CHARS);
}

/**
 * `text` with its white space collapsed when that fits in `max` code points; else the longest run of whole
 * words that fits with a closing "…". Only the start of a long text is looked at.
 */
export function cutAtWord(text: string, max: number): string {
  const words = /\S+/g;
  let collapsed = '';
  let complete = true;
  for (let match = words.exec(text); match; match = words.exec(text)) {
    // More than 2 * max UTF-16 units are more than max code points: enough to cut from.
    if (collapsed.length > 2 * max) {
      complete = false;
      break;
    }
    collapsed = collapsed === '' ? match[0] : `${collapsed} ${match[0]}`;
  }
  if (complete && collapsed.length <= max) return collapsed;
  const characters = /[\uD800-\uDFFF]/.test(collapsed) ? Array.from(collapsed) : collapsed.slice(0, max + 1);
  if (complete && characters.length <= max) return collapsed;
  const room = typeof characters === 'string' ? characters.slice(0, max - 1) : characters.slice(0, max - 1).join('');
  const nextIsSpace = characters[max - 1] === ' ';
  const lastSpace = room.lastIndexOf(' ');
  const kept = nextIsSpace ? room : lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${kept.replace(/[\s,;:.\-–—]+$/u, '')}…`;
}

/** Minutes to read `words` words: ceil(words / 200), at least 1. */
export function readingTime(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
