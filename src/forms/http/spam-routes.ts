// The routes of proof of work (docs/spam.md "Proof of work"): `GET <form>/challenge` issues a challenge to a page
// of an allowed origin, and `GET /altcha.js` (and `/altcha.<hash>.js`) serves the ALTCHA widget that solves it, for
// any site to load.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import nodePath from 'node:path';
import type { FormConfig } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import { contentHash, createFixedFile, IMMUTABLE } from '../../http/fixed-file.js';
import type { Handler, Route } from '../../http/route-table.js';
import type { Clock } from '../../ports.js';
import type { Metrics } from '../metrics.js';
import { isOriginAllowed } from '../rules/cors.js';
import type { ProofOfWork } from '../spam/proof-of-work.js';

/** `GET <form>/challenge`: a new challenge, never cached, readable by the form's allowed origins only. */
export function createChallengeRoute(form: FormConfig, proofOfWork: ProofOfWork, clock: Clock, metrics: Metrics): Handler {
  return async (request): Promise<Answer> => {
    const origin = request.raw.headers.origin;
    if (!isOriginAllowed(origin, form.allowed_origins)) {
      metrics.count(form.path, 'origin_blocked');
      return { ...errorAnswer('origin_not_allowed'), refusedOrigin: origin };
    }
    const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' };
    if (origin !== undefined) {
      headers['access-control-allow-origin'] = origin;
      headers.vary = 'Origin';
    }
    return { status: 200, headers, body: JSON.stringify(await proofOfWork.issue(clock())) };
  };
}

/** The widget's file: the minified classic-script build, which a page loads with or without type="module". */
function widgetFile(): string {
  const require = createRequire(import.meta.url);
  return nodePath.join(nodePath.dirname(require.resolve('altcha')), 'altcha.umd.min.cjs');
}

/** How long a browser keeps `/altcha.js` before asking again: its address stays when the installed version changes. */
const UNVERSIONED_CACHE = 'public, max-age=3600';

export interface WidgetRoutes {
  /** `/altcha.<hash>.js`: the widget at an address that carries a hash of its content. */
  versionedPath: string;
  routes: Route[];
}

/**
 * The widget, read at start and compressed once per coding on first request, for any site to load (CORP
 * cross-origin): at `/altcha.<hash>.js`, cached for a year and never asked again (its address changes with the
 * installed version), and at `/altcha.js` for pages that load it there, kept an hour and revalidated by its ETag.
 * Each encoding has an ETag of its own (docs/spam.md "Proof of work").
 */
export function createWidgetRoutes(path: string): WidgetRoutes {
  const body = readFileSync(widgetFile());
  const versionedPath = path.replace(/\.js$/, `.${contentHash(body)}.js`);
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cross-origin-resource-policy': 'cross-origin', 'access-control-allow-origin': '*' };
  const routeOf = (address: string, cacheControl: string): Route => {
    const answers = createFixedFile(body, { ...headers, 'cache-control': cacheControl });
    const handler: Handler = (request) => answers({ acceptEncoding: request.raw.headers['accept-encoding'], ifNoneMatch: request.raw.headers['if-none-match'] });
    return { path: address, methods: { GET: handler, HEAD: handler } };
  };
  return { versionedPath, routes: [routeOf(path, UNVERSIONED_CACHE), routeOf(versionedPath, IMMUTABLE)] };
}
