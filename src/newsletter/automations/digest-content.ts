// A digest's mail (docs/newsletter.md "Automations"): the optional Markdown body, then every post of the period
// with its link and date, made into a post of its own so that the campaign's renderer gives it the same inline
// styles, absolute links and plain-text part as a post mailed alone. Pure.
import MarkdownIt from 'markdown-it';
import type { PublishedPost } from '../../blog/published-post.js';
import { fillFields } from '../welcome.js';

/** A post the digest names. */
export interface DigestEntry {
  title: string;
  url: string;
  /** RFC 3339. */
  date: string;
}

export interface DigestParts {
  subject: string;
  /** Markdown; `{{count}}` and `{{site}}` are filled in, as in the subject. */
  body: string;
  entries: readonly DigestEntry[];
  site: { title: string; baseUrl: string };
  lang: string;
  /** The time of the run (RFC 3339): the digest's date. */
  at: string;
}

/** The digest as a post for renderCampaignContent: its title the subject, its page the site. */
export function digestPost(parts: DigestParts): PublishedPost {
  const fields = { count: String(parts.entries.length), site: parts.site.title };
  const intro = parts.body.trim() === '' ? '' : new MarkdownIt({ html: false, linkify: true }).render(fillFields(parts.body, fields));
  const items = parts.entries.map((entry) => `<li><a href="${escapeHtml(entry.url)}">${escapeHtml(entry.title)}</a> (${escapeHtml(entry.date.slice(0, 10))})</li>`).join('\n');
  return {
    slug: '',
    lang: parts.lang,
    title: fillFields(parts.subject, fields),
    url: parts.site.baseUrl,
    html: `${intro}<ul>\n${items}\n</ul>\n`,
    date: parts.at,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
