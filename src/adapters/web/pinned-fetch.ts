// The fetch of ActivityPub (docs/activitypub.md "Followers"): fetch-shaped, for Fedify's document loaders and the
// deliveries, but over node:http with the guarded lookup (guarded-lookup.ts), so a host name is resolved once, its
// addresses checked, and the connection made to them: a name whose answer changes between a check and the
// connection (DNS rebinding) cannot reach a private address. It never follows a redirect: each hop is a new call,
// checked again, by the loaders that follow them.
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { createGuardedLookup, isRefusedLiteral, resolveWithSystem, type ResolveName } from './guarded-lookup.js';

/** What a request to a private address fails with (its code is one the queue gives up at once). */
export class PrivateAddressRefused extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor() {
    super('the address is not public');
    this.name = 'PrivateAddressRefused';
  }
}

/** Answers that carry no body (a Response refuses one for them). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch that connects only to checked addresses; with `allowPrivate` (tests, private networks) every address is allowed. */
export function createPinnedFetch(allowPrivate: boolean, resolveName: ResolveName = resolveWithSystem): typeof fetch {
  const lookup = createGuardedLookup(allowPrivate, resolveName, () => new PrivateAddressRefused());
  // Connections of its own: a kept-alive one opened by another fetch (webmentions may allow private addresses when
  // this does not) is never reused here.
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('only http and https URLs are fetched');
    if (isRefusedLiteral(url, allowPrivate)) throw new PrivateAddressRefused();
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers = Object.fromEntries(request.headers);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = client.request(url, { method: request.method, headers, agent: agents[url.protocol as keyof typeof agents], lookup, signal: request.signal }, (incoming) => {
        const status = incoming.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2) answerHeaders.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
        const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        if (stream === null) incoming.resume();
        const response = new Response(stream, { status, statusText: incoming.statusMessage, headers: answerHeaders });
        Object.defineProperty(response, 'url', { value: url.href });
        resolve(response);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
