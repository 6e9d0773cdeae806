// The Webmention endpoint of the blog listener (docs/comments.md "Webmentions", the W3C Recommendation of 2017):
//
//   POST /webmention        form-encoded `source` and `target`: 400 for a target that is not a post taking comments
//                           or a source that cannot be one, 429 past 60 an hour from one source host, else 202 with
//                           a Location where its status is read, once the webmention is kept in the comment
//                           store; the source is checked in the background (webmention-verifier.ts)
//   GET  /webmention/<id>   {"status": "pending" | "accepted" | "refused", "reason"?}, read from the store
// Both answer 503 while the store cannot be reached: nothing was kept.
import type { Answer } from '../../http/answer.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { readFormBody } from '../../forms/request-body.js';
import { isPlainlyPrivateHost } from '../../kit/public-address.js';
import type { Clock, TakeResult } from '../../ports.js';
import { isThreadClosed } from '../moderation.js';
import { answerUnlessUnavailable } from './comment-routes.js';
import type { WebmentionInbox } from '../webmention-inbox.js';
import type { FindTargetPost } from '../webmention/webmention-target.js';
import { normaliseUrl } from '../webmention/webmention-source.js';

export const WEBMENTION_PATH = '/webmention';
/** A webmention body holds two URLs. */
const WEBMENTION_MAX_BODY_BYTES = 16 * 1024;

export interface WebmentionRoutesOptions {
  /** The blog's public_url: the status URLs are built on it. */
  publicUrl: string;
  /** `[blog.comments] webmention_private_sources`: whether a source on a private address is fetched. */
  privateSources: boolean;
  /** `close_after_days`: a closed thread takes no webmentions either. */
  closeAfterDays: number | undefined;
}

export interface WebmentionRoutesDeps {
  findTarget: FindTargetPost;
  /** The per-source-host buckets (60 an hour). */
  limiter: { take(key: string, nowMs: number): TakeResult };
  /** Where a webmention is kept before its 202, and its status read. */
  inbox: WebmentionInbox;
  /** Tells the verifier a webmention was received. */
  wake(): void;
  createId(): string;
  clock: Clock;
}

export function createWebmentionRoutes(options: WebmentionRoutesOptions, deps: WebmentionRoutesDeps): Route[] {
  const headers = () => ({ 'access-control-allow-origin': '*', 'cache-control': 'no-store' });

  const receive: Handler = (request) => answerUnlessUnavailable(receiveWebmention(request));

  const receiveWebmention = async (request: RoutedRequest): Promise<Answer> => {
    const { raw } = request;
    const read = await readFormBody({ stream: raw, contentType: raw.headers['content-type'], contentLength: raw.headers['content-length'] }, WEBMENTION_MAX_BODY_BYTES);
    if (!read.ok) return errorAnswer(read.error, headers(), read.message);
    const source = typeof read.fields.source === 'string' ? normaliseUrl(read.fields.source) : undefined;
    const target = typeof read.fields.target === 'string' ? normaliseUrl(read.fields.target) : undefined;
    if (!source) return errorAnswer('bad_request', headers(), 'source must be an http or https URL.');
    if (!target) return errorAnswer('bad_request', headers(), 'target must be an http or https URL.');
    if (source === target) return errorAnswer('bad_request', headers(), 'source and target must differ.');
    const post = deps.findTarget(target);
    if (!post || isThreadClosed(post.dateMs, options.closeAfterDays, deps.clock())) return errorAnswer('bad_request', headers(), 'target is not a post of this site that takes webmentions.');
    const host = new URL(source).hostname;
    if (!options.privateSources && isPlainlyPrivateHost(host)) return errorAnswer('bad_request', headers(), 'source is on a private address.');
    const token = deps.limiter.take(host.toLowerCase(), deps.clock());
    if (!token.allowed) return errorAnswer('rate_limited', { ...headers(), 'retry-after': String(token.retryAfterSeconds) }, 'Too many webmentions from this source host.');

    const id = deps.createId();
    // Durable before the 202: a restart, or another replica, verifies it if this process does not.
    await deps.inbox.receive({ id, source, target, slug: post.slug, lang: post.lang, receivedAt: deps.clock() });
    deps.wake();
    const location = `${options.publicUrl}${WEBMENTION_PATH}/${id}`;
    return { status: 202, headers: { ...headers(), location, 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify({ status: 'pending', id, location }) };
  };

  const status: Handler = (request) => answerUnlessUnavailable(readStatus(request));

  const readStatus = async (request: RoutedRequest): Promise<Answer> => {
    const found = await deps.inbox.status(request.path.slice(WEBMENTION_PATH.length + 1));
    if (!found) return errorAnswer('not_found', headers());
    return { status: 200, headers: { ...headers(), 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify(found) };
  };

  return [
    { path: WEBMENTION_PATH, methods: { POST: receive } },
    { path: `${WEBMENTION_PATH}/`, prefix: true, methods: { GET: status, HEAD: status } },
  ];
}
