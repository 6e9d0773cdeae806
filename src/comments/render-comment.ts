// A comment's Markdown as HTML (docs/comments.md "What a comment may hold"): markdown-it without raw HTML, every
// link `rel="nofollow ugc"` (a comment's links are the visitor's, not the site's), then sanitize-html with a
// narrow list of tags, so that no markup a visitor writes reaches the page but what Markdown makes of it.
import MarkdownIt from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import { lazyModule } from '../kit/lazy-module.js';

// Loaded on first use, as in src/blog/content/html-policy.ts.
const sanitizeHtml = lazyModule<typeof SanitizeHtml>('sanitize-html');

const COMMENT_TAGS = ['p', 'br', 'a', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'del', 'hr'];

const policy: SanitizeHtml.IOptions = {
  allowedTags: COMMENT_TAGS,
  allowedAttributes: { a: ['href', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // Whatever a link said before, it is the visitor's: search engines are told so (RFC 8288 link types "nofollow", "ugc").
  transformTags: { a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow ugc' } }) },
};

/** Renders comment Markdown to safe HTML. Made once: markdown-it's parser is built here. */
export function createCommentRenderer(): (text: string) => string {
  // Headings and images make no sense in a comment; html: false writes any tag a visitor types as text.
  const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true }).disable(['heading', 'lheading', 'image', 'table']);
  return (text) => sanitizeHtml()(markdown.render(text), policy);
}

/** HTML written elsewhere (a webmention's content, an imported comment) cut down to what a comment may hold, with the same allow-list. */
export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml()(html, policy);
}
