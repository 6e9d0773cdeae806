// The blog service's route table (docs/blog.md "What the API answers"): GET and HEAD pick a prepared answer of
// the current snapshot (compressed when the client takes it, encoded-answers.ts), OPTIONS is the CORS preflight on
// every path under /api/blog, other methods on a route get 405, any other path 404. Every answer carries
// `Access-Control-Allow-Origin: *`.
import { parse as parseQuery } from 'node:querystring';
import type { Answer } from '../../http/answer.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import type { DoorAnswers } from '../../http/front-door.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { createDocumentRoute } from '../../http/openapi/document-route.js';
import { MEDIA_PREFIX } from '../media/media-path.js';
import type { MediaReader } from '../media/media-files.js';
import type { PickAnswer } from './encoded-answers.js';
import { createMediaHandler } from './media-route.js';
import { createBlogDocument, type BlogDocumentPart } from './openapi.js';
import type { PreparedResponse, ResponseFactory } from './prepared-response.js';
import { ALLOWED_METHODS, FIXED_ROUTES, POST_PREFIX, POSTS, type BlogResolver } from './resolve.js';
import type { BlogSnapshot } from './snapshot.js';

export interface BlogRoutesOptions {
  /** The snapshot of the content as it is now; swapped whenever the content changes. */
  current(): BlogSnapshot;
  resolver: BlogResolver;
  /** Reads an image beside a post, for /api/blog/media/. */
  readMedia: MediaReader;
  respond: ResponseFactory;
  /** The form of a prepared answer a request gets: plain, compressed, or its 304. */
  pick: PickAnswer;
  /** What the routes mounted beside these add to /openapi.json. */
  documentParts?: readonly BlogDocumentPart[];
}

/** Distinct request URLs remembered per snapshot; the memo starts over when it is full. */
const URL_MEMO_SIZE = 2000;

/** The 204 answer to OPTIONS (docs/blog.md "HTTP details"). */
const PREFLIGHT: Answer = {
  status: 204,
  headers: [
    'access-control-allow-origin', '*',
    'access-control-allow-methods', ALLOWED_METHODS,
    'access-control-allow-headers', 'Accept, Accept-Language, Content-Type, If-None-Match, Cache-Control',
    'access-control-max-age', '86400',
  ],
};

/** Every route of the blog service. */
export function createBlogRoutes(options: BlogRoutesOptions): Route[] {
  const get = createGetHandler(options);
  const methods = { GET: get, HEAD: get, OPTIONS: preflight };
  const media = createMediaHandler({ ...options, notFound: options.resolver.notFound });
  return [
    ...Object.keys(FIXED_ROUTES).map((path) => ({ path, methods })),
    { path: POSTS, methods },
    { path: POST_PREFIX, prefix: true, methods },
    { path: MEDIA_PREFIX, prefix: true, methods: { GET: media, HEAD: media, OPTIONS: preflight } },
    // Preflight on any path under /api/blog; other methods on an unknown path are simply not found.
    { path: '/api/blog/', prefix: true, methods: { OPTIONS: preflight, '*': () => options.resolver.notFound.answer } },
    // GET /openapi.json (docs/openapi.md): the document of this table, built once here.
    createDocumentRoute(createBlogDocument(options.documentParts)),
  ];
}

/** The blog's own answers (404, 400, 405, 500), prepared with the CORS header. */
export function createBlogDoorAnswers(resolver: BlogResolver): DoorAnswers {
  return {
    notFound: () => resolver.notFound.answer,
    badPath: () => resolver.badPath.answer,
    // The blog's own routes share one prepared 405; a route mounted beside them (the comments) names its own methods.
    methodNotAllowed: (allow) => (allow === ALLOWED_METHODS ? resolver.methodNotAllowed.answer : errorAnswer('method_not_allowed', { 'access-control-allow-origin': '*', allow })),
    internalError: () => resolver.internalError.answer,
  };
}

function preflight(): Answer {
  return PREFLIGHT;
}

/** GET and HEAD: the prepared answer of the URL, or its 304. A repeated URL skips parsing and resolving. */
function createGetHandler({ current, resolver, pick }: BlogRoutesOptions): Handler {
  let memoFor: BlogSnapshot | null = null;
  let memo = new Map<string, PreparedResponse>();
  return (request: RoutedRequest) => {
    const snapshot = current();
    if (snapshot !== memoFor) {
      memoFor = snapshot;
      memo = new Map();
    }
    let prepared = memo.get(request.url);
    if (prepared === undefined) {
      const resolved = resolver.resolve(snapshot, request.path, request.query === '' ? {} : (parseQuery(request.query) as Record<string, unknown>)) ?? resolver.notFound;
      // A scan under way is not remembered: once done, the snapshot keeps its answer and the next request memos it.
      if (resolved instanceof Promise) return resolved.then((ready) => pick(ready, request.raw.headers));
      prepared = resolved;
      if (memo.size >= URL_MEMO_SIZE) memo.clear();
      memo.set(request.url, prepared);
    }
    // If-None-Match and Accept-Encoding as Node joins repeated headers (", "). Node builds `request.headers` for
    // every HTTP/1.1 request anyway (it checks Host), so reading them costs a property lookup.
    return pick(prepared, request.raw.headers);
  };
}
