// The analytics' routes on the blog listener (docs/analytics.md): `GET /a.js`, served as the comment widget is
// (compressed once per coding, an ETag per form, cached an hour), and `POST /api/analytics/event`, the beacon. An
// event is limited per address, read (at most MAX_EVENT_BYTES), counted in memory and answered 204 at once; a bot's
// or a prefetch's is answered the same and not counted. Its request line leaves the address out.
import type { Answer } from '../../http/answer.js';
import { readWholeBody } from '../../http/body-reader.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import { createFixedFile } from '../../http/fixed-file.js';
import type { Handler, Route } from '../../http/route-table.js';
import type { Clock, TakeResult } from '../../ports.js';
import type { Analytics } from '../analytics.js';
import { isBotRequest } from '../bots.js';
import { readPageView } from '../page-view.js';

export const BEACON_PATH = '/a.js';
export const EVENT_PATH = '/api/analytics/event';

/** A beacon is a path, a referrer and a number: more is not one. */
export const MAX_EVENT_BYTES = 4096;

/** How long a browser keeps /a.js before asking again. */
const SCRIPT_CACHE = 'public, max-age=3600';

export interface AnalyticsRouteDeps {
  analytics: Pick<Analytics, 'view'>;
  /** The site's host: a referrer on it is the site itself. */
  siteHost: string;
  /** The per-address limit of this process (src/forms/rules/rate-limiter.ts); undefined when `rate_limit_per_hour` is 0. */
  limiter: { take(key: string, nowMs: number): TakeResult } | undefined;
  rateLimitKey(address: string): string;
  clock: Clock;
}

/** /a.js (the bytes of `script`) and the event endpoint. */
export function createAnalyticsRoutes(script: Buffer, deps: AnalyticsRouteDeps): Route[] {
  const { analytics, siteHost, limiter, rateLimitKey, clock } = deps;
  const scriptAnswers = createFixedFile(script, {
    'content-type': 'text/javascript; charset=utf-8',
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': SCRIPT_CACHE,
  });
  const getScript: Handler = (request) => scriptAnswers({ acceptEncoding: request.raw.headers['accept-encoding'], ifNoneMatch: request.raw.headers['if-none-match'] });

  const postEvent: Handler = async (request) => {
    const { raw, clientAddress } = request;
    const token = limiter?.take(rateLimitKey(clientAddress), clock());
    if (token && !token.allowed) {
      return anonymous(errorAnswer('rate_limited', { 'retry-after': String(token.retryAfterSeconds), connection: 'close' }, 'Too many events from your address.'));
    }
    const body = await readWholeBody(raw, raw.headers['content-length'], MAX_EVENT_BYTES);
    if (!body.ok) return anonymous(errorAnswer(body.error, { connection: 'close' }));
    const view = readPageView(body.body.toString('utf8'), siteHost);
    if (view === undefined) return anonymous(errorAnswer('invalid_body', {}, 'An event is JSON {"path","referrer","width"}.'));
    const { headers } = raw;
    if (!isBotRequest(headers as Parameters<typeof isBotRequest>[0])) analytics.view(view, clientAddress, headers['user-agent'] ?? '');
    return anonymous({ status: 204, headers: { 'cache-control': 'no-store' } });
  };

  return [
    { path: BEACON_PATH, methods: { GET: getScript, HEAD: getScript } },
    { path: EVENT_PATH, methods: { POST: postEvent } },
  ];
}

/** `answer` with its request line written without the client's address (docs/analytics.md "Privacy"). */
function anonymous(answer: Answer): Answer {
  answer.unloggedAddress = true;
  return answer;
}
