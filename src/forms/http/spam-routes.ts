// The routes of proof of work (docs/spam.md "Proof of work"): `GET <form>/challenge` issues a challenge to a page
// of an allowed origin, and `GET /altcha.js` serves the ALTCHA widget that solves it, for any site to load.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FormConfig } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Handler } from '../../http/route-table.js';
import { preferredCoding } from '../../http/content-negotiation.js';
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
  return path.join(path.dirname(require.resolve('altcha')), 'altcha.umd.min.cjs');
}

interface WidgetAnswers {
  etag: string;
  plain: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/**
 * `GET /altcha.js`: the widget, read and compressed once on first request. Any site may load it (CORP
 * cross-origin); it is cached for a year and revalidated by its ETag, which changes with the installed version.
 */
export function createWidgetRoute(): Handler {
  let answers: WidgetAnswers | undefined;
  const load = (): WidgetAnswers => {
    const plain = readFileSync(widgetFile());
    return {
      etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`,
      plain,
      gzip: gzipSync(plain, { level: 9 }),
      br: brotliCompressSync(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    };
  };
  return (request): Answer => {
    answers ??= load();
    const headers: Record<string, string> = {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000',
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
      vary: 'Accept-Encoding',
      etag: answers.etag,
    };
    const ifNoneMatch = request.raw.headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answers!.etag)) {
      return { status: 304, headers };
    }
    const coding = preferredCoding(request.raw.headers['accept-encoding']);
    if (coding === undefined) return { status: 200, headers, body: answers.plain };
    headers['content-encoding'] = coding;
    return { status: 200, headers, body: answers[coding] };
  };
}
