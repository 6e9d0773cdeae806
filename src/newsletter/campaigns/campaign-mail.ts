// The mail of a campaign (a published post sent to newsletter subscribers): the post rendered once per campaign
// as an HTML fragment with inline styles and a plain-text twin, then wrapped per recipient with a footer that
// carries their unsubscribe link. Pure: no I/O, no clock.
import type * as Cheerio from 'cheerio';
import type * as HtmlToText from 'html-to-text';
import type { HtmlToTextOptions } from 'html-to-text';
import type Juice from 'juice';
import type MarkdownIt from 'markdown-it';
import { lazyModule } from '../../kit/lazy-module.js';
import type { PublishedPost } from '../../blog/published-post.js';
import type { LayoutColors, MailLayout } from '../../config/config.js';
import { DEFAULT_LAYOUT_COLORS } from '../../config/mail-layouts.js';
import { toHeaderText } from '../../kit/header-value.js';
import { splitLayout } from '../mail-layout.js';

const cheerio = lazyModule<typeof Cheerio>('cheerio');
const htmlToText = lazyModule<typeof HtmlToText>('html-to-text');
const juice = lazyModule<typeof Juice>('juice');
const markdownIt = lazyModule<typeof MarkdownIt>('markdown-it');

/**
 * A layout's or an automation's Markdown as HTML. They come from the configuration, not from visitors; raw HTML in
 * them is written as text all the same, so that a mail's markup is always what the styles expect.
 */
export function renderMailMarkdown(markdown: string): string {
  return new (markdownIt())({ html: false }).render(markdown);
}

/** What every mail of one campaign shares; rendered once, as plain data (it may be stored as JSON). */
export interface CampaignContent {
  /** The post's title on one line. */
  subject: string;
  /** Canonical language code of the post, for `<html lang>`. */
  lang: string;
  /** A fragment (no `<html>`): absolute URLs, every style inline, no `<style>` block. */
  html: string;
  /** The same content as plain text, beginning with the title. */
  text: string;
  /** The page's background colour (`#rgb` or `#rrggbb`, a layout's); white when absent. */
  background?: string;
}

/** Where a recipient's footer points; values are plain text and URLs, escaped here. */
export interface CampaignFooter {
  unsubscribeUrl: string;
  /** The recipient's preference page (docs/newsletter.md "Preferences"), when there is one. */
  preferencesUrl?: string;
  siteTitle: string;
  /** The post on the web, for a campaign; none for an automation's mail. */
  postUrl?: string;
}

// Single quotes only: the footer puts this inside a double-quoted style attribute.
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

// Many clients (Gmail's apps, Outlook) drop <style> blocks, so juice copies these rules into style attributes. The
// colours are a layout's (docs/newsletter.md "Layouts"), checked as hex colours when the configuration is loaded.
const contentCss = (colors: LayoutColors) => `
.postbox-campaign { max-width: 600px; margin: 0 auto; font-family: ${FONT}; font-size: 16px; line-height: 1.6; color: ${colors.text}; background: ${colors.background}; }
.postbox-layout { font-size: 14px; color: #6b7280; }
.postbox-layout-header { margin: 0 0 24px; }
.postbox-layout-footer { margin: 32px 0 0; }
.postbox-masthead { margin: 0 0 24px; font-size: 14px; color: #6b7280; }
.postbox-masthead a { color: #6b7280; text-decoration: none; }
h1 { font-size: 26px; line-height: 1.25; margin: 0 0 20px; }
h2 { font-size: 21px; line-height: 1.3; margin: 28px 0 12px; }
h3, h4, h5, h6 { font-size: 17px; line-height: 1.35; margin: 24px 0 8px; }
p, ul, ol, dl, table, figure { margin: 0 0 16px; }
li { margin: 0 0 4px; }
a { color: ${colors.link}; }
img { max-width: 100%; height: auto; border: 0; }
code { font-family: ${MONO}; font-size: 0.9em; background: #f4f4f5; padding: 1px 4px; border-radius: 3px; }
pre { margin: 0 0 16px; padding: 12px; overflow-x: auto; background: #f4f4f5; border-radius: 4px; font-size: 14px; line-height: 1.45; }
pre code { padding: 0; background: transparent; font-size: inherit; }
blockquote { margin: 0 0 16px; padding: 0 0 0 14px; border-left: 4px solid #d4d4d8; color: #52525b; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d4d4d8; padding: 6px 10px; text-align: left; }
hr { border: 0; border-top: 1px solid #e4e4e7; margin: 24px 0; }
`;

// Images carry no text of their own in the plain part: their alt text, or nothing.
const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: 78,
  formatters: {
    altText: (element, _walk, builder) => {
      const alt = (element as { attribs?: Record<string, string> }).attribs?.alt?.trim();
      if (alt) builder.addInline(alt);
    },
  },
  selectors: [
    // The title stays as written (a name like "iPhone" must not become "IPHONE"); other headings as the library does.
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'img', format: 'altText' },
    { selector: 'table', format: 'dataTable' },
  ],
};

/** Renders `post` for mailing: the title as `<h1>` over the post's HTML, in the list's `layout` or under a masthead naming `site`. */
export function renderCampaignContent(post: PublishedPost, site: { title: string; baseUrl: string }, layout?: MailLayout): CampaignContent {
  const title = toHeaderText(post.title);
  return renderMailContent({ subject: title, lang: post.lang, html: `<h1>${escapeHtml(title)}</h1>\n${post.html}`, baseUrl: post.url, site, layout });
}

/** What renderMailContent takes: the body's HTML, whose relative links resolve on `baseUrl`. */
export interface MailContentParts {
  subject: string;
  lang: string;
  html: string;
  baseUrl: string;
  site: { title: string; baseUrl: string };
  /** The list's layout (docs/newsletter.md "Layouts"); without one, a masthead naming the site. */
  layout?: MailLayout;
}

/**
 * Any mail to subscribers (a campaign's, an automation's) as an HTML fragment with inline styles and its plain text:
 * the body between the layout's header and footer, or under a masthead. Rendered once per mail's content.
 */
export function renderMailContent(parts: MailContentParts): CampaignContent {
  const body = absolutizeUrls(parts.html, parts.baseUrl);
  const { layout } = parts;
  const parted = layout && splitLayout(layout.markdown);
  const header = parted && parted.header.trim() !== '' ? absolutizeUrls(renderMailMarkdown(parted.header), parts.site.baseUrl) : '';
  const footer = parted && parted.footer.trim() !== '' ? absolutizeUrls(renderMailMarkdown(parted.footer), parts.site.baseUrl) : '';
  // The masthead is chrome, not content: the text part begins with the title. A layout's header replaces it.
  const top = parted
    ? header && `<div class="postbox-layout postbox-layout-header">\n${header}</div>\n`
    : `<p class="postbox-masthead"><a href="${escapeHtml(parts.site.baseUrl)}">${escapeHtml(parts.site.title)}</a></p>\n`;
  const bottom = footer && `\n<div class="postbox-layout postbox-layout-footer">\n${footer}</div>`;
  // juice sets aside `{{ ... }}` as a Handlebars block and styles nothing inside it; a post about templates would
  // lose its styles, so a `{` before another `{` goes in as a character reference (the same text on screen).
  const wrapped = `<div class="postbox-campaign">\n${top}${body}${bottom}\n</div>`.replace(/\{(?=\{)/g, '&#123;');
  const html = juice()(wrapped, {
    extraCss: contentCss(layout?.colors ?? DEFAULT_LAYOUT_COLORS),
    // `height="auto"` and `width` attributes copied from CSS would fight max-width on images.
    applyHeightAttributes: false,
    applyWidthAttributes: false,
  });
  const text = [header, body, footer].filter((part) => part !== '').map((part) => htmlToText().convert(part, TEXT_OPTIONS).trim());
  const content: CampaignContent = { subject: parts.subject, lang: parts.lang, html, text: text.filter((part) => part !== '').join('\n\n') };
  return layout ? { ...content, background: layout.colors.background } : content;
}

/**
 * One recipient's mail: `content` as a whole HTML document with the footer, and the text with the same footer
 * after a `-- ` line (the signature separator of RFC 3676 section 4.3). Runs once per recipient, so it only joins
 * strings.
 */
export function composeCampaignMail(content: CampaignContent, footer: CampaignFooter): { subject: string; html: string; text: string } {
  const postUrl = footer.postUrl === undefined ? undefined : escapeHtml(footer.postUrl);
  const unsubscribeUrl = escapeHtml(footer.unsubscribeUrl);
  const preferencesUrl = footer.preferencesUrl === undefined ? undefined : escapeHtml(footer.preferencesUrl);
  const html =
    '<!doctype html>\n' +
    `<html lang="${escapeHtml(content.lang)}">\n<head>\n<meta charset="utf-8">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(content.subject)}</title>\n</head>\n` +
    `<body style="margin: 0; padding: 16px; background: ${content.background ?? '#ffffff'};">\n` +
    `${content.html}\n` +
    `<div style="max-width: 600px; margin: 32px auto 0; padding-top: 16px; border-top: 1px solid #e4e4e7; font-family: ${FONT}; font-size: 13px; line-height: 1.5; color: #6b7280;">\n` +
    (postUrl ? `<p style="margin: 0 0 8px;"><a href="${postUrl}" style="color: #6b7280;">Read it on the web</a></p>\n` : '') +
    `<p style="margin: 0;">You receive this because you subscribed to ${escapeHtml(footer.siteTitle)}. ` +
    `Unsubscribe: <a href="${unsubscribeUrl}" style="color: #6b7280;">${unsubscribeUrl}</a></p>\n` +
    (preferencesUrl ? `<p style="margin: 8px 0 0;">Choose your lists: <a href="${preferencesUrl}" style="color: #6b7280;">${preferencesUrl}</a></p>\n` : '') +
    '</div>\n</body>\n</html>\n';
  const text =
    `${content.text}\n\n-- \n` +
    (footer.postUrl ? `Read it on the web: ${footer.postUrl}\n` : '') +
    `You receive this because you subscribed to ${footer.siteTitle}.\n` +
    `Unsubscribe: ${footer.unsubscribeUrl}\n` +
    (footer.preferencesUrl ? `Choose your lists: ${footer.preferencesUrl}\n` : '');
  return { subject: content.subject, html, text };
}

/** A URL with a scheme (`https:`, `mailto:`, `tel:`, ...) is left as written. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `value` resolved against `base` (a root-relative path against its origin), unless it is absolute or unusable. */
function absoluteUrl(value: string, base: string): string {
  const url = value.trim();
  if (url === '' || HAS_SCHEME.test(url)) return value;
  try {
    return new URL(url, base).href;
  } catch {
    return value;
  }
}

/** `srcset` candidates are `<url> [descriptor]`, comma-separated (HTML "srcset attribute"). */
function absoluteSrcset(value: string, base: string): string {
  return value
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptors] = candidate.trim().split(/\s+/);
      return [absoluteUrl(url, base), ...descriptors].join(' ');
    })
    .join(', ');
}

/** Every relative link and media address of `html` made absolute on `base`, the post's public page. */
function absolutizeUrls(html: string, base: string): string {
  const $ = cheerio().load(html, null, false);
  for (const attribute of ['href', 'src', 'poster']) {
    $(`[${attribute}]`).each((_index, element) => {
      const value = $(element).attr(attribute);
      if (value !== undefined) $(element).attr(attribute, absoluteUrl(value, base));
    });
  }
  $('[srcset]').each((_index, element) => {
    const value = $(element).attr('srcset');
    if (value !== undefined) $(element).attr('srcset', absoluteSrcset(value, base));
  });
  return $.html();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
