// The blog's HTTP service (docs/blog.md): the routes of the blog API, its feeds, sitemap and media behind one
// front door, answering from the snapshot the blog's content (blog-content.ts) keeps current, compressed once per
// answer for the clients that take it.
import type { IncomingMessage } from 'node:http';
import type { Compress } from '../http/compression.js';
import { createFrontDoor } from '../http/front-door.js';
import type { HttpService } from '../http/http-service.js';
import type { RequestLog } from '../http/request-log.js';
import type { RequestDurations } from '../http/request-durations.js';
import type { Route } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { BlogContent, BlogSettings } from './blog-content.js';
import { createBlogDoorAnswers, createBlogRoutes } from './http/blog-routes.js';
import type { BlogDocumentPart } from './http/openapi.js';
import { createAnswerPicker } from './http/encoded-answers.js';
import { BLOG_COMMON_HEADERS } from './http/prepared-response.js';
import { createBlogResolver } from './http/resolve.js';
import { createMediaReader, type MediaReader } from './media/media-files.js';

/** What the blog's HTTP service works through. */
export interface BlogServiceDeps {
  logger: Logger;
  requestLog: RequestLog;
  clientAddressOf(request: IncomingMessage): string;
  /** Routes served beside the blog's own on its listener (/admin when the configuration puts it there). */
  extraRoutes?: readonly Route[];
  /** What those routes add to the blog's /openapi.json (/admin adds nothing: it is no API). */
  documentParts?: readonly BlogDocumentPart[];
  /** How cached answers are compressed (the blog's levels of http/compression.ts unless a test counts the calls). */
  compress?: Compress;
  /** Where media are read from (docs/blog.md "Media in storage"); content_dir unless given. */
  readMedia?: MediaReader;
  /** Where its requests are counted for the forms service's /metrics (docs/forms-api.md "/metrics"). */
  requestDurations?: RequestDurations;
}

/** The blog API over `content`; closing it leaves the content to its owner. */
export function createBlogService(settings: BlogSettings, content: BlogContent, deps: BlogServiceDeps): HttpService {
  const { blog } = settings;
  const { respond } = content;
  const resolver = createBlogResolver(respond);
  const handle = createFrontDoor({
    routes: [
      ...(deps.extraRoutes ?? []),
      ...createBlogRoutes({ current: content.current, resolver, readMedia: deps.readMedia ?? createMediaReader(blog.content_dir), respond, pick: createAnswerPicker(deps.compress), documentParts: deps.documentParts }),
    ],
    answers: createBlogDoorAnswers(resolver),
    clientAddressOf: deps.clientAddressOf,
    requestLog: deps.requestLog,
    logger: deps.logger,
    requestDurations: deps.requestDurations,
  });
  return {
    name: 'blog',
    listen: blog.listen,
    handle,
    // No route reads a body: a client that asks before sending one is answered without it.
    serverSettings: { maxBodyBytes: 0, commonHeaders: BLOG_COMMON_HEADERS },
    close: async () => undefined,
  };
}
