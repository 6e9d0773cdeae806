// The ActivityPub routes the blog listener mounts (docs/activitypub.md "Addresses"): WebFinger, NodeInfo and
// everything under /activitypub/, each request handed to the library's one fetch(Request) -> Response on the
// address it has behind the reverse proxy (blog.public_url's origin), and its answer written back.
import { readWholeBody } from '../../http/body-reader.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import type { Handler, Route } from '../../http/route-table.js';

/** The largest activity the inbox reads. */
export const ACTIVITY_MAX_BODY_BYTES = 1024 * 1024;

export function createActivityPubRoutes(handle: (request: Request) => Promise<Response>, origin: string): Route[] {
  const handler: Handler = async (request) => {
    const { raw } = request;
    let body: Buffer | undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const whole = await readWholeBody(raw, raw.headers['content-length'], ACTIVITY_MAX_BODY_BYTES);
      if (!whole.ok) return errorAnswer(whole.error);
      body = whole.body;
    }
    const headers = new Headers();
    for (let index = 0; index + 1 < raw.rawHeaders.length; index += 2) headers.append(raw.rawHeaders[index]!, raw.rawHeaders[index + 1]!);
    const response = await handle(new Request(new URL(request.url, origin), { method: request.method, headers, body: body && new Uint8Array(body) }));
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: response.status, headers: answerHeaders, body: Buffer.from(await response.arrayBuffer()) };
  };
  const read = { GET: handler, HEAD: handler };
  return [
    { path: '/.well-known/webfinger', methods: read },
    { path: '/.well-known/nodeinfo', methods: read },
    { path: '/nodeinfo/2.1', methods: read },
    { path: '/activitypub/', prefix: true, methods: { ...read, POST: handler } },
  ];
}
