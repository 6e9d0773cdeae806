// Relative links to files beside a post in a folder become absolute media URLs (docs/blog.md "Images beside a
// post"): `![](pic.png)` in `trip/index.md` renders `src="<public_url>/api/blog/media/trip/pic.png"`, in the
// detail's `html`, in both feeds and in newsletters (`public_url` is `[blog] public_url`, by default site.base_url:
// where the blog API is reached from outside). Done on markdown-it's tokens (image `src`, link_open `href`) while
// rendering; raw HTML in a post is not rewritten.
import type MarkdownItClass from 'markdown-it';
import type { Token } from 'markdown-it';

/** The render environment: the media base of the post being rendered, or none (a `<slug>.md` post). */
export interface MediaLinkEnv {
  /** `<public_url>/api/blog/media/<slug>/`, ending with a slash. */
  mediaBase?: string | null;
}

/**
 * The absolute URL of `url` when it names a file beside the post: relative, no scheme, no leading `/`,
 * `#` or `?`, one path segment (an optional `./` aside) that is neither hidden nor a dot segment. Its
 * `?query` and `#fragment` are kept. Anything else (absolute URLs, `#top`, `mailto:`, `../x`, `a/b.png`)
 * gives null and stays as written.
 */
export function resolveMediaLink(url: string, mediaBase: string): string | null {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return null;
  const relative = url.replace(/^(?:\.\/)+/, '');
  const end = relative.search(/[?#]/);
  const name = end === -1 ? relative : relative.slice(0, end);
  if (name === '' || name.startsWith('.') || /[/\\]/.test(name)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    return null;
  }
  if (decoded.startsWith('.') || /[/\\\p{Cc}]/u.test(decoded)) return null;
  return `${mediaBase}${relative}`;
}

/** The markdown-it plugin: a core rule after inline parsing that rewrites image and link URLs. */
export function mediaLinks(markdown: InstanceType<typeof MarkdownItClass>): void {
  markdown.core.ruler.push('media_links', (state) => {
    const base = (state.env as MediaLinkEnv | undefined)?.mediaBase;
    if (!base) return;
    for (const token of state.tokens) {
      if (token.type === 'inline' && token.children) rewrite(token.children, base);
    }
  });
}

function rewrite(tokens: Token[], base: string): void {
  for (const token of tokens) {
    const attribute = token.type === 'image' ? 'src' : token.type === 'link_open' ? 'href' : null;
    if (attribute === null) continue;
    const url = token.attrGet(attribute);
    const absolute = typeof url === 'string' ? resolveMediaLink(url, base) : null;
    if (absolute !== null) token.attrSet(attribute, absolute);
  }
}
