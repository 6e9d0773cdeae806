// Fetches for webmentions (docs/comments.md "Webmentions"): a page of another site, within PAGE_LIMITS, refusing
// any address that is not public unless private ones are allowed. The host name is resolved here, every address
// it has is checked, and the connection goes to a checked address (the socket's lookup is this check,
// guarded-lookup.ts), so a name that resolves differently a moment later cannot lead elsewhere. Every redirect is
// checked the same way.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { PAGE_LIMITS, PageRefused, type FetchedPage, type FetchPage } from '../../comments/webmention/fetch-page.js';
import { VERSION } from '../../version.js';
import { createGuardedLookup, isRefusedLiteral, resolveWithSystem, type ResolveName } from './guarded-lookup.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const PRIVATE_REASON = 'The source is on a private address.';

/** The fetch of webmentions; with `allowPrivate` (tests, a site on a private network) every address is allowed. */
export function createGuardedFetch(allowPrivate: boolean, resolveName: ResolveName = resolveWithSystem): FetchPage {
  const lookup = createGuardedLookup(allowPrivate, resolveName, () => new PageRefused(PRIVATE_REASON));
  return async (url, request = {}) => {
    const signal = AbortSignal.timeout(PAGE_LIMITS.timeoutMs);
    let current = new URL(url);
    let form = request.form;
    for (let redirects = 0; ; redirects += 1) {
      const answer = await requestOnce(current, form, lookup, allowPrivate, signal);
      const location = answer.headers.location;
      if (!REDIRECTS.has(answer.status) || location === undefined) return answer.page;
      if (redirects >= PAGE_LIMITS.maxRedirects) throw new PageRefused('The source redirects too often.');
      current = new URL(location, current);
      // A 303, and a 301 or 302 after a POST, is followed with a GET (RFC 9110 section 15.4).
      if (answer.status !== 307 && answer.status !== 308) form = undefined;
    }
  };
}

interface OneAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  page: FetchedPage;
}

function requestOnce(url: URL, form: Record<string, string> | undefined, lookup: LookupFunction, allowPrivate: boolean, signal: AbortSignal): Promise<OneAnswer> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new PageRefused('The source is not an http or https URL.'));
  // An address literal is not looked up, so it is checked here.
  if (isRefusedLiteral(url, allowPrivate)) return Promise.reject(new PageRefused(PRIVATE_REASON));
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        lookup,
        signal,
        headers: {
          'user-agent': `Postbox/${VERSION} (webmention)`,
          accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1',
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > PAGE_LIMITS.maxBytes) {
            incoming.destroy();
            reject(new PageRefused('The source is larger than 1 MB.'));
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('error', (error) => reject(refusalOf(error)));
        incoming.on('end', () => {
          const link = incoming.headers.link;
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            page: {
              status: incoming.statusCode ?? 0,
              url: url.href,
              contentType: incoming.headers['content-type'],
              // Node joins repeated Link headers with ", "; the raw lines keep them apart.
              links: link === undefined ? [] : linkLinesOf(incoming.rawHeaders),
              body: Buffer.concat(chunks).toString('utf8'),
            },
          });
        });
      },
    );
    outgoing.on('error', (error) => reject(refusalOf(error)));
    outgoing.end(body);
  });
}

function linkLinesOf(rawHeaders: readonly string[]): string[] {
  const lines: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === 'link') lines.push(rawHeaders[index + 1]!);
  return lines;
}

/** A refusal as it is; a timeout or network failure as a refusal that says so (no address or internal detail). */
function refusalOf(error: unknown): PageRefused {
  if (error instanceof PageRefused) return error;
  const name = (error as Error).name;
  if (name === 'AbortError' || name === 'TimeoutError') return new PageRefused('The source did not answer within 5 seconds.');
  return new PageRefused('The source could not be reached.');
}
