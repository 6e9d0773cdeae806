// What the analytics' routes add to the blog's /openapi.json (docs/analytics.md): the script and the beacon.
import type { ApiDocument } from '../../http/openapi/api-document.js';
import { z } from '../../http/openapi/openapi-zod.js';
import { MAX_PATH_LENGTH } from '../page-view.js';
import { BEACON_PATH, EVENT_PATH, MAX_EVENT_BYTES } from './analytics-routes.js';

const beacon = z.object({
  path: z.string().max(MAX_PATH_LENGTH).openapi({ description: 'location.pathname: starts with "/"; a query or fragment is removed.' }),
  referrer: z.string().optional().openapi({ description: 'document.referrer; only the host of another site is counted.' }),
  width: z.number().optional().openapi({ description: 'window.innerWidth; counted as a class (mobile, tablet, desktop).' }),
});

export function registerAnalyticsPaths(api: ApiDocument): void {
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path: BEACON_PATH,
      operationId: `${method}AnalyticsScript`,
      tags: ['analytics'],
      summary: 'The page-view script, for every page of the site',
      request: { headers: z.object({ 'If-None-Match': z.string().optional() }) },
      responses: {
        200: {
          description: api.describe(200, 'a classic script that sends one beacon per page view, kept an hour, compressed when the request takes brotli or gzip (an ETag per encoding).'),
          headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', Vary: 'required' }),
          content: { 'text/javascript': { schema: z.string() } },
        },
        304: { description: api.describe(304, 'the script the client holds is current.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required' }) },
        ...api.errors([]),
      },
    });
  }
  api.registry.registerPath({
    method: 'post',
    path: EVENT_PATH,
    operationId: 'postAnalyticsEvent',
    tags: ['analytics'],
    summary: 'One page view',
    description: `docs/analytics.md. Sent by /a.js with navigator.sendBeacon as text/plain; the body is read as JSON whatever its type, at most ${MAX_EVENT_BYTES} bytes. A bot's or a prefetch's event is answered 204 and not counted.`,
    request: { body: { required: true, content: { 'text/plain': { schema: beacon }, 'application/json': { schema: beacon } } } },
    responses: {
      204: { description: api.describe(204, 'counted (or, from a bot or a prefetch, left out).'), headers: api.headers({ 'Cache-Control': 'required' }) },
      ...api.errors(['invalid_body', 'body_too_large', 'rate_limited'], {
        headers: { 429: { 'Retry-After': 'required' } },
        notes: { 429: 'more than `[analytics] rate_limit_per_hour` events an hour from one address' },
      }),
    },
  });
}
