// The comment routes in the blog listener's /openapi.json (docs/openapi.md, docs/comments.md "The API"): added to
// the blog's document when `[blog.comments]` is on, so that the document lists exactly the routes the listener has.
import type { ApiDocument, ResponseHeaders } from '../../http/openapi/api-document.js';
import { z } from '../../http/openapi/openapi-zod.js';
import { challengeBody } from '../../forms/http/openapi-answers.js';
import { ACCEPTED_CONTENT_TYPES } from '../../forms/request-body.js';
import { COMMENT_HONEYPOT_FIELD, NAME_MAX, TEXT_MAX, URL_MAX } from '../comment-fields.js';
import { COMMENTS_CHALLENGE_PATH, COMMENTS_PREFIX, COMMENTS_SUFFIX } from './comment-routes.js';
import { WEBMENTION_PATH } from './webmention-routes.js';
import { COMMENT_WIDGET_PATH } from './widget-routes.js';

const THREAD_PATH = `${COMMENTS_PREFIX}{slug}${COMMENTS_SUFFIX}`;
const CORS: ResponseHeaders = { 'Access-Control-Allow-Origin': 'optional', Vary: 'optional' };

const slugParams = z.object({ slug: z.string() });
const langQuery = z.object({ lang: z.string().optional().openapi({ description: 'The language version, as for the post; given at most once.' }) });
const originHeader = z.object({
  Origin: z.string().optional().openapi({ description: 'The page\'s origin; a browser sends it, and it must be one of `allowed_origins`.' }),
});

const publicComment = z.strictObject({
  id: z.string().openapi({ description: 'Letters a-z and digits (`tkp8qxa3f2`): `#comment-<id>` on a page, and what a reply\'s `parent` names.' }),
  parent: z.string().nullable().openapi({ description: 'The comment this one answers; null at the top of the thread.' }),
  author: z.strictObject({ name: z.string(), url: z.string().nullable() }),
  html: z.string().openapi({ description: 'The comment\'s Markdown rendered without raw HTML, links `rel="nofollow ugc"`.' }),
  created_at: z.string().openapi({ description: 'RFC 3339, to the second (`2026-11-29T10:00:00.000Z`).' }),
  kind: z.enum(['comment', 'reply', 'like', 'repost', 'bookmark', 'mention']).openapi({ description: '"comment", or what a webmention is (docs/comments.md "Webmentions").' }),
});

const threadBody = z.strictObject({ comments: z.array(publicComment), total: z.number().int() });

const commentFields = z.object({
  name: z.string().min(1).max(NAME_MAX),
  email: z.string().optional().openapi({ description: 'Kept for moderation, never shown.' }),
  url: z.string().max(URL_MAX).optional().openapi({ description: 'An http or https address.' }),
  text: z.string().min(1).max(TEXT_MAX).openapi({ description: `Markdown, at most ${TEXT_MAX} characters; raw HTML is shown as text.` }),
  parent: z.string().optional().openapi({ description: 'The id of a published comment of the same post version.' }),
  notify: z
    .union([z.boolean(), z.enum(['on', 'true', '1', 'yes'])])
    .optional()
    .openapi({ description: 'With an email: a mail for each published reply, once the address confirmed (docs/comments.md "Reply notifications").' }),
  altcha: z.string().optional().openapi({ description: 'The solution to a challenge of GET /api/blog/comments/challenge, when proof of work is on.' }),
  [COMMENT_HONEYPOT_FIELD]: z.string().optional().openapi({ description: 'The honeypot: left empty by people.' }),
});

const webmentionFields = z.object({
  source: z.string().openapi({ description: 'The page that links to the post: an http or https URL.' }),
  target: z.string().openapi({ description: 'The post\'s public page on site.base_url.' }),
});
const webmentionAccepted = z.strictObject({ status: z.enum(['pending']), id: z.string(), location: z.string() });
const webmentionStatus = z.strictObject({ status: z.enum(['pending', 'accepted', 'refused']), reason: z.string().optional() });

const acceptedBody = z.strictObject({ status: z.enum(['pending', 'published']), id: z.string() });
const validationBody = z.strictObject({
  error: z.enum(['validation']),
  details: z.array(z.strictObject({ field: z.enum(['name', 'email', 'url', 'text', 'parent']), message: z.string() })),
});

/** Registers the comment routes in the blog's document. */
export function registerCommentPaths(api: ApiDocument): void {
  const thread = {
    description: api.describe(200, 'the published comments, oldest first.'),
    headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }),
  };
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path: THREAD_PATH,
      operationId: `${method}Comments`,
      tags: ['comments'],
      summary: 'The published comments of a post version',
      request: { params: slugParams, query: langQuery, headers: z.object({ 'If-None-Match': z.string().optional() }) },
      responses: {
        200: method === 'get' ? { ...thread, content: { 'application/json': { schema: threadBody } } } : thread,
        304: { description: api.describe(304, 'the thread the client holds is current.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }) },
        ...api.errors(['invalid_query', 'not_found', 'unavailable'], { headers: { 400: { 'Access-Control-Allow-Origin': 'required' }, 404: { 'Access-Control-Allow-Origin': 'required' } } }),
      },
    });
  }
  api.registry.registerPath({
    method: 'post',
    path: THREAD_PATH,
    operationId: 'postComment',
    tags: ['comments'],
    summary: 'Send a comment',
    description: 'docs/comments.md "Sending a comment". A form sent without script (form-encoded, not asking for JSON, from a page of an allowed origin) is answered 303.',
    request: {
      params: slugParams,
      query: langQuery,
      headers: originHeader,
      body: { required: true, content: Object.fromEntries(ACCEPTED_CONTENT_TYPES.map((type) => [type, { schema: commentFields }])) },
    },
    responses: {
      202: { description: api.describe(202, 'published now, or waiting for a person.'), headers: api.headers(CORS), content: { 'application/json': { schema: acceptedBody } } },
      303: { description: api.describe(303, 'back to the page, at `#comment-<id>` or `#comment-pending`.'), headers: api.headers({ Location: 'required' }) },
      ...api.errors(['invalid_body', 'invalid_query', 'spam', 'origin_not_allowed', 'not_found', 'body_too_large', 'rate_limited', 'unavailable'], {
        bodies: { 400: { code: 'validation', schema: validationBody } },
        headers: { 400: CORS, 404: CORS, 413: CORS, 429: { ...CORS, 'Retry-After': 'required' }, 503: { 'Retry-After': 'required' } },
        notes: { 403: 'the `Origin` is not in `allowed_origins`', 404: 'no such post, it takes no comments, or its thread is closed', 429: 'more than `rate_limit_per_hour` comments an hour from one address' },
      }),
    },
  });
  api.registry.registerPath({
    method: 'get',
    path: COMMENTS_CHALLENGE_PATH,
    operationId: 'challengeComments',
    tags: ['comments'],
    summary: 'A proof-of-work challenge for a comment (docs/spam.md "Proof of work")',
    request: { headers: originHeader },
    responses: {
      200: { description: api.describe(200, 'a new challenge, never cached.'), headers: api.headers({ 'Cache-Control': 'required', ...CORS }), content: { 'application/json': { schema: challengeBody } } },
      ...api.errors(['origin_not_allowed', 'not_found'], { notes: { 404: 'proof of work is off' } }),
    },
  });
  for (const [path, name] of [[THREAD_PATH, 'Comments'], [COMMENTS_CHALLENGE_PATH, 'CommentsChallenge']] as const) {
    api.registry.registerPath({
      method: 'options',
      path,
      operationId: `preflight${name}`,
      tags: ['comments'],
      summary: 'CORS preflight',
      request: { ...(path === THREAD_PATH ? { params: slugParams } : {}), headers: originHeader },
      responses: {
        204: {
          description: api.describe(204, 'the CORS headers of an allowed origin.'),
          headers: api.headers({ 'Access-Control-Allow-Origin': 'optional', 'Access-Control-Allow-Methods': 'optional', 'Access-Control-Allow-Headers': 'optional', 'Access-Control-Max-Age': 'required', Vary: 'optional' }),
        },
        ...api.errors(['origin_not_allowed']),
      },
    });
  }
  registerWebmentionPaths(api);
}

/** POST /webmention and its status pages (docs/comments.md "Webmentions"). */
function registerWebmentionPaths(api: ApiDocument): void {
  api.registry.registerPath({
    method: 'post',
    path: WEBMENTION_PATH,
    operationId: 'postWebmention',
    tags: ['comments'],
    summary: 'Receive a webmention',
    description: 'docs/comments.md "Webmentions". The source is checked in the background; its status is read at `Location`.',
    request: { body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: webmentionFields } } } },
    responses: {
      202: { description: api.describe(202, 'taken; checked in the background.'), headers: api.headers({ Location: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }), content: { 'application/json': { schema: webmentionAccepted } } },
      ...api.errors(['bad_request', 'invalid_body', 'body_too_large', 'rate_limited'], {
        headers: { 429: { 'Retry-After': 'required' } },
        notes: { 400: 'the target is not a post taking webmentions, or the source cannot be one', 429: 'more than 60 webmentions an hour from one source host' },
      }),
    },
  });
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path: `${WEBMENTION_PATH}/{id}`,
      operationId: `${method}WebmentionStatus`,
      tags: ['comments'],
      summary: 'The status of a webmention',
      request: { params: z.object({ id: z.string() }) },
      responses: {
        200: { description: api.describe(200, 'pending, accepted, or refused with the reason.'), headers: api.headers({ 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }), ...(method === 'get' ? { content: { 'application/json': { schema: webmentionStatus } } } : {}) },
        ...api.errors(['not_found'], { notes: { 404: 'no webmention of that id in this process' } }),
      },
    });
  }
}

/** The comment widget's two addresses (docs/comments.md "The widget"): `/comments.js` and its versioned one. */
export function registerCommentWidgetPaths(api: ApiDocument, versionedPath: string): void {
  const addresses = [
    { path: COMMENT_WIDGET_PATH, operation: 'CommentWidget', cached: 'kept an hour' },
    { path: versionedPath, operation: 'VersionedCommentWidget', cached: 'at an address that carries a hash of its content, kept a year (immutable)' },
  ];
  for (const { path, operation, cached } of addresses) {
    const script = {
      description: api.describe(200, `the <postbox-comments> widget, an ES module, ${cached}, compressed when the request takes brotli or gzip (an ETag per encoding).`),
      headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required', Vary: 'required' }),
      content: { 'text/javascript': { schema: z.string() } },
    };
    for (const method of ['get', 'head'] as const) {
      api.registry.registerPath({
        method,
        path,
        operationId: `${method}${operation}`,
        tags: ['comments'],
        summary: 'The comment widget, for any page',
        request: { headers: z.object({ 'If-None-Match': z.string().optional() }) },
        responses: {
          200: script,
          304: { description: api.describe(304, 'the widget the client holds is current.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required' }) },
          ...api.errors([]),
        },
      });
    }
  }
}
