// The comment routes of the blog listener (docs/comments.md "The API"):
//
//   GET     /api/blog/posts/<slug>/comments[?lang=]   the published comments, oldest first, with an ETag (304 when
//                                                     it matches), compressed as Accept-Encoding asks; 404 for a
//                                                     post that is unknown, not published or without comments
//   POST    /api/blog/posts/<slug>/comments[?lang=]   a new comment (JSON or form-encoded): 202 {status, id}, or 303
//                                                     back to the page for a form sent without script
//   OPTIONS the same path, and the challenge's        the CORS preflight of allowed_origins
//   GET     /api/blog/comments/challenge              a proof-of-work challenge (docs/spam.md "Proof of work")
//
// Every POST takes a token of its address's bucket before its body is read: in this process in one synchronous
// step, in Redis in one script, so a burst of concurrent POSTs from one address never gets more than
// rate_limit_per_hour through. A store or Redis that cannot be reached is answered 503, as the forms answer it.
import { createHash } from 'node:crypto';
import type { Answer } from '../../http/answer.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { readFormBody } from '../../forms/request-body.js';
import { isOriginAllowed } from '../../forms/rules/cors.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { FormLimiter } from '../../ports.js';
import type { CommentedVersion, CommentStore, StoredComment } from '../comment-store.js';
import { createAnswerPicker } from '../../blog/http/encoded-answers.js';
import { createCompress, type Compress, type CompressionLevels } from '../../http/compression.js';
import { prepareResponse, type PreparedResponse } from '../../blog/http/prepared-response.js';
import { publicThreadOf } from '../comment-thread.js';
import type { FindCommentedPost } from '../commented-post.js';
import { postComment, type CommentSettings, type PostCommentDeps } from '../post-comment.js';
import { isNoScriptPost, noScriptLocation } from './no-script.js';

export const COMMENTS_PREFIX = '/api/blog/posts/';
export const COMMENTS_SUFFIX = '/comments';
export const COMMENTS_CHALLENGE_PATH = '/api/blog/comments/challenge';

/** The largest comment body read: 10,000 characters of text, four bytes each at most, and the other fields. */
export const COMMENT_MAX_BODY_BYTES = 64 * 1024;

export interface CommentRoutesOptions extends CommentSettings {
  allowedOrigins: readonly string[];
}

export interface CommentRoutesDeps extends PostCommentDeps {
  store: CommentStore;
  findPost: FindCommentedPost;
  /** Per-address buckets of rate_limit_per_hour, in this process or in Redis; undefined when it is 0. */
  limiter: FormLimiter | undefined;
  /** The bucket an address counts in (an IPv6 network shares one, docs/configuration.md "rate_limit_ipv6_prefix"). */
  rateLimitKey(address: string): string;
  /** Reply notifications and the owner's mail (comment-mail.ts), after the comment is kept. */
  afterPost?(comment: StoredComment, notify: boolean): Promise<void>;
  /** Compresses a thread's answer (THREAD_LEVELS unless a test counts). */
  compress?: Compress;
}

/**
 * A thread is compressed again at the first read after each new comment, so brotli runs at quality 6: on a thread of
 * 1,000 comments (270 KB of JSON) it is as small as at the blog's quality 9 (10 KB) in a fortieth of the time
 * (docs/performance.md "A thread of 1,000 comments").
 */
export const THREAD_LEVELS: CompressionLevels = Object.freeze({ brotliQuality: 6, gzipLevel: 9 });

/** The routes of [blog.comments], mounted beside the blog's own. */
export function createCommentRoutes(options: CommentRoutesOptions, deps: CommentRoutesDeps): Route[] {
  const postOf = (request: RoutedRequest) => {
    const slug = request.path.slice(COMMENTS_PREFIX.length, -COMMENTS_SUFFIX.length);
    const langs = request.query === '' ? [] : new URLSearchParams(request.query).getAll('lang');
    if (langs.length > 1) return 'invalid' as const;
    return deps.findPost(slug, langs[0]?.trim() || undefined);
  };

  const read: Handler = (request) => answerUnlessUnavailable(readThread(request));

  // A thread's answer is prepared once per version of the thread, as the blog's cached answers are, and its
  // compressed forms (gzip, brotli) are made once, at the first request that takes each (encoded-answers.ts): a
  // request of an unchanged thread costs the post's lookup, the store's and a map's. A store that hands out the
  // same array while a version is unchanged (the files store, a memory read) is looked up by it. A store that reads
  // afresh (PostgreSQL) gives the thread's stamp first, one small read: while it is the one the last answer was made
  // under, that answer is given without reading the comments; after a change they are read and the answer is made
  // again (its entity tag the same when what is shown did not change, as after a waiting comment's removal).
  const pickAnswer = createAnswerPicker(deps.compress ?? createCompress(THREAD_LEVELS));
  const byArray = new WeakMap<readonly StoredComment[], PreparedResponse>();
  const lastOfVersion = new Map<string, { prepared: PreparedResponse; stamp?: string }>();
  const threadAnswerOf = (key: string, comments: readonly StoredComment[], stamp?: string): PreparedResponse => {
    const known = byArray.get(comments);
    if (known) return known;
    // Bytes, not a string: a long thread is not encoded again for every answer.
    const body = Buffer.from(JSON.stringify(publicThreadOf(comments)));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    let prepared = lastOfVersion.get(key)?.prepared;
    if (prepared?.etag !== etag) {
      // Always asked again (a new comment shows at once), and answered 304 while the thread is unchanged.
      const cache = { etag, 'cache-control': 'no-cache' };
      prepared = prepareResponse(200, body, etag, { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.length), ...cache }, cache);
    }
    // The stamp read before the comments: a change between the two reads only makes the next request read again.
    lastOfVersion.set(key, { prepared, stamp });
    byArray.set(comments, prepared);
    return prepared;
  };
  const currentAnswerOf = async (post: CommentedVersion): Promise<PreparedResponse> => {
    const key = `${post.slug}@${post.lang}`;
    if (!deps.store.threadStamp) return threadAnswerOf(key, await deps.store.listVersion(post));
    const stamp = await deps.store.threadStamp(post);
    const last = lastOfVersion.get(key);
    if (last?.stamp === stamp) return last.prepared;
    return threadAnswerOf(key, await deps.store.listVersion(post), stamp);
  };

  const readThread = async (request: RoutedRequest): Promise<Answer> => {
    const headers = { 'access-control-allow-origin': '*' };
    const post = postOf(request);
    if (post === 'invalid') return errorAnswer('invalid_query', headers, 'lang must be given at most once');
    if (!post) return errorAnswer('not_found', headers);
    return pickAnswer(await currentAnswerOf(post), request.raw.headers);
  };

  const send: Handler = (request) => answerUnlessUnavailable(sendComment(request));

  const sendComment = async (request: RoutedRequest): Promise<Answer> => {
    const origin = request.raw.headers.origin;
    if (!isOriginAllowed(origin, options.allowedOrigins)) return { ...errorAnswer('origin_not_allowed'), refusedOrigin: origin };
    const headers: Record<string, string> = origin === undefined ? {} : corsHeaders(origin);
    const post = postOf(request);
    if (post === 'invalid') return errorAnswer('invalid_query', headers, 'lang must be given at most once');
    if (!post) return errorAnswer('not_found', headers);
    // The token is taken before anything is awaited: concurrent requests are counted one after the other.
    const taking = deps.limiter?.take(deps.rateLimitKey(request.clientAddress), deps.clock());
    const token = taking instanceof Promise ? await taking : taking;
    if (token && !token.allowed) return errorAnswer('rate_limited', { ...headers, 'retry-after': String(token.retryAfterSeconds) });
    const { raw } = request;
    const read = await readFormBody({ stream: raw, contentType: raw.headers['content-type'], contentLength: raw.headers['content-length'] }, COMMENT_MAX_BODY_BYTES);
    if (!read.ok) return errorAnswer(read.error, headers, read.message);
    const outcome = await postComment(options, deps, post, read.fields, request.clientAddress);
    switch (outcome.kind) {
      case 'invalid':
        return { status: 400, headers: { ...headers, 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify({ error: 'validation', details: outcome.details }) };
      case 'closed':
        return errorAnswer('not_found', headers, 'Comments on this post are closed.');
      case 'spam_rejected':
        return errorAnswer('spam', headers);
      case 'accepted': {
        await deps.afterPost?.(outcome.comment, outcome.notify);
        const referer = raw.headers.referer;
        if (isNoScriptPost(raw.headers, options.allowedOrigins)) {
          return { status: 303, headers: { location: noScriptLocation(referer!, outcome.status === 'published' ? outcome.id : undefined) } };
        }
        return { status: 202, headers: { ...headers, 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify({ status: outcome.status, id: outcome.id }) };
      }
    }
  };

  const challenge: Handler = async (request) => {
    const origin = request.raw.headers.origin;
    if (!isOriginAllowed(origin, options.allowedOrigins)) return { ...errorAnswer('origin_not_allowed'), refusedOrigin: origin };
    const headers: Record<string, string> = { ...(origin === undefined ? {} : corsHeaders(origin)), 'cache-control': 'no-store' };
    const proofOfWork = deps.spam.proofOfWork;
    if (!proofOfWork) return errorAnswer('not_found', headers);
    const issued = await proofOfWork.issue(deps.clock());
    return { status: 200, headers: { ...headers, 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify(issued) };
  };

  const preflight: Handler = (request) => {
    const origin = request.raw.headers.origin;
    if (!isOriginAllowed(origin, options.allowedOrigins)) return { ...errorAnswer('origin_not_allowed'), refusedOrigin: origin };
    return { status: 204, headers: { ...(origin === undefined ? {} : corsHeaders(origin)), 'access-control-max-age': '86400' } };
  };

  return [
    { path: COMMENTS_PREFIX, prefix: true, suffix: COMMENTS_SUFFIX, methods: { GET: read, HEAD: read, POST: send, OPTIONS: preflight } },
    { path: COMMENTS_CHALLENGE_PATH, methods: { GET: challenge, OPTIONS: preflight } },
  ];
}

/** `answer`, or 503 when a part it needed could not be reached (docs/configuration.md "[state]"). */
export async function answerUnlessUnavailable(answer: Promise<Answer>): Promise<Answer> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof UnavailableError) return errorAnswer('unavailable', { 'retry-after': '5' });
    throw error;
  }
}

/** The CORS headers an allowed origin gets on the comment routes. */
function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type',
    vary: 'Origin',
  };
}
