// `GET /comments.js` and `/comments.<hash>.js` on the blog listener: the comment widget for any site to load
// (docs/comments.md "The widget"), as the forms serve the ALTCHA widget (src/forms/http/spam-routes.ts): compressed
// once per coding, an ETag per form; the versioned address cached for a year, the plain one an hour and revalidated.
import { contentHash, createFixedFile, IMMUTABLE } from '../../http/fixed-file.js';
import type { Handler, Route } from '../../http/route-table.js';

export const COMMENT_WIDGET_PATH = '/comments.js';

/** How long a browser keeps `/comments.js` before asking again: its address stays when the widget changes. */
const UNVERSIONED_CACHE = 'public, max-age=3600';

/** The widget's two routes, and its versioned address (`/comments.<hash>.js`). */
export function createCommentWidgetRoutes(body: Buffer): { versionedPath: string; routes: Route[] } {
  const versionedPath = COMMENT_WIDGET_PATH.replace(/\.js$/, `.${contentHash(body)}.js`);
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cross-origin-resource-policy': 'cross-origin', 'access-control-allow-origin': '*' };
  const routeOf = (address: string, cacheControl: string): Route => {
    const answers = createFixedFile(body, { ...headers, 'cache-control': cacheControl });
    const handler: Handler = (request) => answers({ acceptEncoding: request.raw.headers['accept-encoding'], ifNoneMatch: request.raw.headers['if-none-match'] });
    return { path: address, methods: { GET: handler, HEAD: handler } };
  };
  return { versionedPath, routes: [routeOf(COMMENT_WIDGET_PATH, UNVERSIONED_CACHE), routeOf(versionedPath, IMMUTABLE)] };
}
