// GET /openapi.json of the blog listener (docs/openapi.md): an OpenAPI 3.1 document of the blog API, built once,
// when the first blog service starts: it depends on the code alone, not on the configuration. The /posts parameters
// come from the bounds the query parser checks (catalog/query-params.ts), the bodies from openapi-answers.ts, the paths
// from the route table's own constants. /admin, when it is served on this listener, is not an API and is left out.
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { createApiDocument, type ApiDocument, type ResponseHeaders } from '../../http/openapi/api-document.js';
import type { ErrorCode } from '../../http/error-catalogue.js';
import { z } from '../../http/openapi/openapi-zod.js';
import {
  DEFAULT_PAGE_SIZE,
  FIRST_PAGE,
  LARGEST_WHOLE_NUMBER,
  MAX_PAGE_SIZE,
  MIN_PAGE_SIZE,
  POSTS_QUERY_PARAMETERS,
  WHOLE_NUMBER_DIGITS,
  type PostsQueryParameter,
} from '../catalog/query-params.js';
import { MEDIA_PREFIX } from '../media/media-path.js';
import { detailBody, healthBody, jsonFeedBody, postsBody, siteBody, tagsBody } from './openapi-answers.js';
import { contentTypes } from './prepared-response.js';
import { ALLOWED_METHODS, FIXED_ROUTES, POST_PREFIX, POSTS } from './resolve.js';

/** Every path under it answers the CORS preflight (blog-routes.ts). */
export const API_PREFIX = '/api/blog/';

interface ReadableDoc {
  /** The operations' names: `get<name>`, `head<name>`, `preflight<name>`. */
  name: string;
  summary: string;
  /** The 200's media type and body. */
  media: string;
  schema: ZodType | { type: 'string'; contentMediaType?: string; description?: string };
  /** Answers with an ETag and `Cache-Control: public`, and a 304 on a matching If-None-Match. */
  cached: 'always' | 'never';
  errors?: ErrorCode[];
  params?: z.ZodObject;
  query?: z.ZodObject;
}

const text = { type: 'string' as const };

/** The routes with a path of their own (resolve.ts FIXED_ROUTES). */
const FIXED_DOCS: Record<string, Omit<ReadableDoc, 'cached'> & { cached: 'always' | 'never' }> = {
  '/health': { name: 'Health', summary: 'Whether the blog answers, and how many versions are published', media: contentTypes.json, schema: healthBody, cached: 'never' },
  '/api/blog/site': { name: 'Site', summary: 'The site', media: contentTypes.json, schema: siteBody, cached: 'always' },
  '/api/blog/tags': { name: 'Tags', summary: 'The tags with their counts', media: contentTypes.json, schema: tagsBody, cached: 'always' },
  '/api/blog/feed.xml': { name: 'Rss', summary: 'RSS 2.0 of the newest posts', media: contentTypes.rss, schema: text, cached: 'always' },
  '/api/blog/feed.json': { name: 'JsonFeed', summary: 'JSON Feed 1.1 of the newest posts', media: contentTypes.jsonFeed, schema: jsonFeedBody, cached: 'always' },
  '/api/blog/sitemap.xml': { name: 'Sitemap', summary: 'The sitemap of every published version', media: contentTypes.xml, schema: text, cached: 'always' },
};

/**
 * A page or a limit as the parser takes it (catalog/query-params.ts): digits only, at most WHOLE_NUMBER_DIGITS of
 * them, leading zeros allowed, from 1 to `max`. A string with a pattern, since `type: integer` would let a client send
 * `+1` or `1e2`, which the parser refuses.
 */
function wholeNumberParameter(min: 1, max: number, fallback: number, description: string) {
  const pattern = `^(?=\\d{1,${WHOLE_NUMBER_DIGITS}}$)0*(?:${upTo(max).join('|')})$`;
  return z.string().regex(new RegExp(pattern)).default(String(fallback)).openapi({ description: `${description} Digits only (at most ${WHOLE_NUMBER_DIGITS}).`, pattern });
}

/** Alternatives that match the numbers 1 to `max` written without leading zeros, digit by digit. */
function upTo(max: number): string[] {
  const digits = String(max);
  if (/^9+$/.test(digits)) return [`[1-9]\\d{0,${digits.length - 1}}`];
  const alternatives = digits.length > 1 ? [`[1-9]\\d{0,${digits.length - 2}}`] : [];
  for (let index = 0; index < digits.length; index += 1) {
    const lowest = index === 0 ? 1 : 0;
    const digit = Number(digits[index]);
    const rest = digits.length - index - 1;
    if (digit > lowest) alternatives.push(`${digits.slice(0, index)}[${lowest}-${digit - 1}]${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return alternatives;
}

/** The parameters of /posts, each described from the bounds the parser checks; every parameter it reads must be here. */
const POSTS_PARAMETERS = {
  lang: z.string().optional().openapi({ description: 'Versions in that language (case-insensitive), plus `all_langs` posts; empty: no filter.' }),
  tag: z.string().optional().openapi({ description: 'Posts with that tag, case-insensitive, whole tag; empty: no filter.' }),
  q: z.string().optional().openapi({ description: 'Words separated by spaces; each must occur in the title or the body (docs/blog.md "How `q` compares text"); empty: no filter.' }),
  page: wholeNumberParameter(FIRST_PAGE, LARGEST_WHOLE_NUMBER, FIRST_PAGE, 'The page, from 1. A page past the end is an empty list.'),
  limit: wholeNumberParameter(MIN_PAGE_SIZE, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, `Posts per page, from ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE}.`),
} satisfies Record<PostsQueryParameter, ZodType>;

const langQuery = z.object({ lang: z.string().optional().openapi({ description: 'The language version to give; given at most once.' }) });

/** Routes mounted beside the blog's own describe themselves into its document (the comments, docs/comments.md). */
export type BlogDocumentPart = (api: ApiDocument) => void;

/** The document without parts, made once a process: it depends on the code alone, not on the configuration. */
let built: Record<string, unknown> | undefined;

/** The document of the blog listener, with the `parts` of the routes mounted beside the blog's. */
export function createBlogDocument(parts: readonly BlogDocumentPart[] = []): Record<string, unknown> {
  if (parts.length > 0) return buildBlogDocument(parts);
  built ??= buildBlogDocument([]);
  return built;
}

function buildBlogDocument(parts: readonly BlogDocumentPart[]): Record<string, unknown> {
  const api = createApiDocument();
  for (const part of parts) part(api);
  for (const path of Object.keys(FIXED_ROUTES)) {
    // A route without a description here is found by the route-table test (test/openapi/).
    const fixed = FIXED_DOCS[path];
    if (fixed) registerReadable(api, path, fixed);
  }
  registerReadable(api, POSTS, {
    name: 'Posts',
    summary: 'A page of posts, newest first, filtered by language, tag and words',
    media: contentTypes.json,
    schema: postsBody,
    cached: 'always',
    errors: ['invalid_query'],
    query: z.object(Object.fromEntries(POSTS_QUERY_PARAMETERS.map((name) => [name, POSTS_PARAMETERS[name]]))),
  });
  registerReadable(api, `${POST_PREFIX}{slug}`, {
    name: 'Post',
    summary: 'A post; `lang` picks a version',
    media: contentTypes.json,
    schema: detailBody,
    cached: 'always',
    errors: ['invalid_query', 'bad_request', 'not_found', 'draft'],
    params: z.object({ slug: z.string() }),
    query: langQuery,
  });
  registerReadable(api, `${MEDIA_PREFIX}{slug}/{file}`, {
    name: 'Media',
    summary: 'An image beside a published post in a folder (docs/blog.md "Images beside a post")',
    media: 'image/*',
    schema: { type: 'string', contentMediaType: 'image/*', description: 'The image\'s bytes: PNG, JPEG, GIF, WebP or AVIF.' },
    cached: 'always',
    errors: ['bad_request', 'not_found'],
    params: z.object({ slug: z.string(), file: z.string() }),
  });
  api.registry.registerPath({
    method: 'options',
    path: `${API_PREFIX}{path}`,
    operationId: 'preflightApi',
    tags: ['blog'],
    summary: 'The CORS preflight of any path under /api/blog; other methods there are `404 not_found`',
    request: { params: z.object({ path: z.string() }) },
    responses: { 204: preflightAnswer(api), ...api.errors([]) },
  });
  return api.generate({
    title: 'Postbox blog',
    description: `${parts.length > 0 ? 'The blog API, with its comments (docs/comments.md),' : 'The read-only blog API'} (docs/blog.md "What the API answers"). Every answer carries \`Access-Control-Allow-Origin: *\`. JSON answers, feeds and the sitemap are sent compressed (brotli or gzip) when the request takes it, each form with an entity tag of its own. A method other than ${ALLOWED_METHODS} on a path is answered \`405 method_not_allowed\` with \`Allow\`, an unknown path \`404 not_found\`.`,
  });
}

function registerReadable(api: ApiDocument, path: string, doc: ReadableDoc): void {
  const headers: ResponseHeaders = {
    'Access-Control-Allow-Origin': 'required',
    'Cache-Control': 'required',
    ...(doc.cached === 'never' ? {} : { ETag: 'required', Vary: 'optional' }),
  };
  const media = doc.media.split(';')[0]!;
  const ifNoneMatch = doc.cached === 'never' ? undefined : z.object({ 'If-None-Match': z.string().optional().openapi({ description: 'Entity tags of earlier answers.' }) });
  const request = { ...(doc.params ? { params: doc.params } : {}), ...(doc.query ? { query: doc.query } : {}), ...(ifNoneMatch ? { headers: ifNoneMatch } : {}) };
  const notModified: Record<number, ResponseConfig> = doc.cached === 'never' ? {} : { 304: { description: api.describe(304, 'the answer the client holds is current.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required' }) } };
  const errors = api.errors(doc.errors ?? [], { headers: Object.fromEntries([400, 404, 500].map((status) => [status, { 'Access-Control-Allow-Origin': 'required' }])) });
  for (const method of ['get', 'head'] as const) {
    api.registry.registerPath({
      method,
      path,
      operationId: `${method}${doc.name}`,
      tags: ['blog'],
      summary: doc.summary,
      request,
      responses: {
        200: { description: api.describe(200, doc.summary.toLowerCase()), headers: api.headers(headers), ...(method === 'get' ? { content: { [media]: { schema: doc.schema } } } : {}) },
        ...notModified,
        ...errors,
      },
    });
  }
  api.registry.registerPath({
    method: 'options',
    path,
    operationId: `preflight${doc.name}`,
    tags: ['blog'],
    summary: 'CORS preflight',
    ...(doc.params ? { request: { params: doc.params } } : {}),
    responses: { 204: preflightAnswer(api), ...api.errors([]) },
  });
}

function preflightAnswer(api: ApiDocument) {
  return {
    description: api.describe(204, 'any page may call the API.'),
    headers: api.headers({ 'Access-Control-Allow-Origin': 'required', 'Access-Control-Allow-Methods': 'required', 'Access-Control-Allow-Headers': 'required', 'Access-Control-Max-Age': 'required' }),
  };
}
