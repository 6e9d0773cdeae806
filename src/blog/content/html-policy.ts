// What a post's HTML may hold when its writer is not trusted with raw HTML (docs/blog.md "Raw HTML"): the
// markup Markdown makes and the usual article HTML, through sanitize-html. No script, style, form or object, no
// event-handler attribute, no URL but http(s), mailto, tel and relative ones (and data: images); an iframe only with an https `src`
// on one of `[blog] allow_iframes_from`.
import type SanitizeHtml from 'sanitize-html';
import { lazyModule } from '../../kit/lazy-module.js';

// Loaded on the first post that needs it (with htmlparser2 and postcss, a tenth of a start otherwise).
const sanitizeHtml = lazyModule<typeof SanitizeHtml>('sanitize-html');

export interface HtmlPolicyOptions {
  /** Host names (`www.youtube-nocookie.com`) whose pages a post may embed in an iframe. */
  iframeHosts?: readonly string[];
}

const EXTRA_TAGS = ['img', 'picture', 'source', 'video', 'audio', 'track', 'figure', 'figcaption', 'details', 'summary', 'del', 'ins'];
const MEDIA_ATTRIBUTES = ['src', 'srcset', 'sizes', 'type', 'media', 'alt', 'title', 'width', 'height', 'loading', 'poster', 'controls', 'muted', 'loop', 'playsinline', 'preload', 'kind', 'label', 'srclang'];

/** A function that makes untrusted post HTML safe to show on the site's and /admin's origin. */
export function createHtmlPolicy(options: HtmlPolicyOptions = {}): (html: string) => string {
  let settings: SanitizeHtml.IOptions | undefined;
  return (html) => sanitizeHtml()(html, (settings ??= policySettings(options)));
}

function policySettings(options: HtmlPolicyOptions): SanitizeHtml.IOptions {
  const iframeHosts = [...(options.iframeHosts ?? [])];
  const allowedTags = [...sanitizeHtml().defaults.allowedTags, ...EXTRA_TAGS, ...(iframeHosts.length > 0 ? ['iframe'] : [])];
  return {
    allowedTags,
    allowedAttributes: {
      '*': ['id', 'class', 'title', 'lang', 'dir'],
      a: ['href', 'name', 'target', 'rel', 'hreflang'],
      img: MEDIA_ATTRIBUTES,
      source: MEDIA_ATTRIBUTES,
      video: MEDIA_ATTRIBUTES,
      audio: MEDIA_ATTRIBUTES,
      track: MEDIA_ATTRIBUTES,
      // markdown-it writes a table column's alignment as a style.
      th: ['style', 'colspan', 'rowspan', 'scope'],
      td: ['style', 'colspan', 'rowspan'],
      ol: ['start', 'reversed', 'type'],
      code: ['class'],
      time: ['datetime'],
      iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy'],
    },
    allowedStyles: { th: { 'text-align': [/^(?:left|right|center)$/] }, td: { 'text-align': [/^(?:left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    allowedIframeHostnames: iframeHosts,
    allowIframeRelativeUrls: false,
    transformTags: {
      iframe: (tagName, attribs) => ({ tagName, attribs: attribs.src?.startsWith('https://') ? attribs : {} }),
    },
  };
}
