// The excerpt and reading time of a post (contract section 4).
import type { MarkdownIt } from 'markdown-it';
import { markdownToPlainText } from './markdown.js';

/** Longest excerpt, in characters (code points), ellipsis included. */
export const EXCERPT_MAX_CHARS = 280;
/** Reading speed behind reading_time. */
export const WORDS_PER_MINUTE = 200;

const moreMarker = /<!--\s*more\s*-->/i;

/**
 * The front-matter excerpt, else the text before `<!--more-->`, else the first paragraph; as plain text of at
 * most 280 characters cut at a word.
 */
export function resolveExcerpt(markdown: MarkdownIt, frontMatterExcerpt: string | undefined, body: string, firstParagraph: string): string {
  if (frontMatterExcerpt !== undefined && frontMatterExcerpt.trim() !== '') {
    return cutAtWord(markdownToPlainText(markdown, frontMatterExcerpt), EXCERPT_MAX_CHARS);
  }
  const more = moreMarker.exec(body);
  if (more) {
    const before = markdownToPlainText(markdown, body.slice(0, more.index));
    if (before !== '') return cutAtWord(before, EXCERPT_MAX_CHARS);
  }
  return cutAtWord(firstParagraph, EXCERPT_MAX_CHARS);
}

/** `text` when it fits in `max` code points; else its longest run of whole words that fits with a closing "…". */
export function cutAtWord(text: string, max: number): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  const room = characters.slice(0, max - 1).join('');
  const nextIsSpace = /\s/.test(characters[max - 1] ?? '');
  const lastSpace = room.search(/\s\S*$/);
  const kept = nextIsSpace ? room : lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${kept.replace(/[\s,;:.\-–—]+$/u, '')}…`;
}

/** Minutes to read `words` words: ceil(words / 200), at least 1. */
export function readingTime(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
