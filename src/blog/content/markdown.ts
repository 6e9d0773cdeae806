// Markdown through markdown-it: the HTML, the plain text the excerpt is cut from, and the word count for
// reading_time (contract section 4). Raw HTML is allowed because the author of the posts is trusted.
import MarkdownItClass, { type MarkdownIt, type Token } from 'markdown-it';

/** The renderer every post goes through; one per service. */
export function createMarkdown(): MarkdownIt {
  return new MarkdownItClass({ html: true, linkify: true });
}

export interface RenderedMarkdown {
  html: string;
  /** Words outside code blocks (fenced and indented), for reading_time. */
  words: number;
  /** Plain text of the first paragraph that has any text. */
  firstParagraph: string;
}

/** Renders `body` once and reads what the summary needs from the same tokens. */
export function renderMarkdown(markdown: MarkdownIt, body: string): RenderedMarkdown {
  const env = {};
  const tokens = markdown.parse(body, env);
  const html = markdown.renderer.render(tokens, markdown.options, env);
  let words = 0;
  let firstParagraph = '';
  let inParagraph = false;
  for (const token of tokens) {
    if (token.type === 'paragraph_open') inParagraph = true;
    else if (token.type === 'paragraph_close') inParagraph = false;
    const text = blockText(token);
    if (text === null) continue;
    words += countWords(text);
    if (inParagraph && firstParagraph === '' && text.trim() !== '') firstParagraph = collapseSpace(text);
  }
  return { html, words, firstParagraph };
}

/** Plain text of a Markdown fragment (an excerpt in front matter, the part before `<!--more-->`). */
export function markdownToPlainText(markdown: MarkdownIt, source: string): string {
  const parts: string[] = [];
  for (const token of markdown.parse(source, {})) {
    const text = blockText(token);
    if (text !== null) parts.push(text);
  }
  return collapseSpace(parts.join(' '));
}

/** The text a block token contributes; null for code blocks and tokens without text. */
function blockText(token: Token): string | null {
  if (token.type === 'inline') return inlineText(token.children ?? []);
  if (token.type === 'html_block') return stripTags(token.content);
  return null;
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

function countWords(text: string): number {
  const matches = text.match(/\S+/g);
  return matches ? matches.length : 0;
}

/** One space between words, none at the ends. */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
