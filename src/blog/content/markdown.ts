// Markdown through markdown-it (docs/blog.md "Markdown"). Raw HTML is written through only for a post marked
// `raw_html` (docs/blog.md "Raw HTML"); any other post's HTML goes through content/html-policy.ts. Loading
// 10,000 posts must stay fast, so loading only runs markdown-it's block parser (enough for the word count
// and the first paragraph); the full HTML is rendered when a post is first asked for.
import MarkdownItClass, { type Token } from 'markdown-it';
import { createHtmlPolicy, type HtmlPolicyOptions } from './html-policy.js';
import { mediaLinks, type MediaLinkEnv } from './media-links.js';

export interface MarkdownOutline {
  /** Words outside code blocks (fenced and indented), for reading_time. */
  words: number;
  /** Plain text of the first paragraph that has any text (white space as written). */
  firstParagraph: string;
}

export interface MarkdownTools {
  /**
   * The post's HTML; with `mediaBase` (`<base_url>/api/blog/media/<slug>/`, for a post in a folder) relative
   * links to files beside the post are made absolute on it (content/media-links.ts). Sanitised unless `rawHtml`.
   */
  render(body: string, mediaBase?: string | null, rawHtml?: boolean): string;
  /** What the summary needs, from the block structure alone. */
  outline(body: string): MarkdownOutline;
  /** Plain text of a Markdown fragment (front-matter excerpt, text before `<!--more-->`); white space as written. */
  plainText(fragment: string): string;
}

/** The Markdown helpers of one service; `options` says which iframes a sanitised post keeps. */
export function createMarkdownTools(options: HtmlPolicyOptions = {}): MarkdownTools {
  const sanitize = createHtmlPolicy(options);
  const full = new MarkdownItClass({ html: true }).use(mediaLinks);
  const blocks = new MarkdownItClass({ html: true });
  blocks.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);

  const inlinePlainText = (source: string): string => inlineText(full.parseInline(source, {})[0]?.children ?? []);

  return {
    render(body, mediaBase, rawHtml = false) {
      const html = full.render(body, { mediaBase } satisfies MediaLinkEnv);
      return rawHtml ? html : sanitize(html);
    },
    outline(body) {
      let words = 0;
      let firstParagraph: string | null = null;
      let inParagraph = false;
      for (const token of blocks.parse(body, {})) {
        if (token.type === 'paragraph_open') inParagraph = true;
        else if (token.type === 'paragraph_close') inParagraph = false;
        else if (token.type === 'inline') {
          // Inline markup ("**", "[text](url)") does not change the number of white-space separated words.
          words += countWords(token.content);
          if (inParagraph && firstParagraph === null && token.content.trim() !== '') firstParagraph = token.content;
        } else if (token.type === 'html_block') words += countWords(stripTags(token.content));
      }
      return { words, firstParagraph: firstParagraph === null ? '' : inlinePlainText(firstParagraph) };
    },
    plainText(fragment) {
      const parts: string[] = [];
      for (const token of blocks.parse(fragment, {})) {
        if (token.type === 'inline') parts.push(inlinePlainText(token.content));
        else if (token.type === 'html_block') parts.push(stripTags(token.content));
      }
      return parts.join(' ');
    },
  };
}

function inlineText(children: Token[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image') text += inlineText(child.children ?? []);
  }
  return text;
}

function stripTags(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<[^>]*>/g, ' ');
}

/** Runs of non-white-space characters (JavaScript's \\s); a plain loop, as it runs over every post at start-up. */
function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const space = code > 32 && code < 127 ? false : code <= 32 ? code === 32 || (code >= 9 && code <= 13) : code > 127 && /\s/.test(text[index]!);
    if (space) inWord = false;
    else if (!inWord) {
      words += 1;
      inWord = true;
    }
  }
  return words;
}
