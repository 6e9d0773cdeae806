// Shared set-up of the blog tests: the fixture posts under test/fixtures/blog/posts, a config through the
// real loader, the catalog built from them, and the blog service on a content folder with captured logs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config/config.js';
import { buildCatalog, groupBySlug, type Catalog } from '../../src/blog/catalog/catalog.js';
import { createLanguageNames } from '../../src/blog/content/language.js';
import { createPostLibrary } from '../../src/blog/content/library.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import type { ParseContext } from '../../src/blog/content/parse-post.js';
import type { PostVersion } from '../../src/blog/content/post.js';
import { createBlogContent, type BlogContent, type BlogContentDeps } from '../../src/blog/blog-content.js';
import { createBlogService } from '../../src/blog/blog-service.js';
import type { HttpService } from '../../src/http/http-service.js';
import { createClientAddressResolver } from '../../src/http/client-ip.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type ServiceDriver } from '../support/http.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/blog/', import.meta.url));
export const FIXTURE_POSTS = path.join(FIXTURES, 'posts');

export const SITE = {
  title: 'Fixture Blog',
  description: 'Posts & notes',
  base_url: 'https://blog.example.com',
  language: 'en',
  author: 'Site Author',
  fediverse_creator: '@site@example.social',
};

/** A config with [site] and [blog] over `contentDir`; `site` and `blog` entries override the defaults. */
export function blogConfig(contentDir: string, overrides: { site?: Record<string, unknown>; blog?: Record<string, unknown> } = {}): Config {
  return loadTestConfig(
    {
      site: { ...SITE, ...overrides.site },
      blog: { listen: '127.0.0.1:0', content_dir: contentDir, cache_max_age: 120, ...overrides.blog },
    },
    path.dirname(contentDir),
  );
}

/** The parse context the service builds from the config. */
export function parseContext(config: Config = blogConfig(FIXTURE_POSTS)): ParseContext {
  return {
    markdown: createMarkdownTools(),
    languageNames: createLanguageNames(),
    defaultLanguage: config.site!.language,
    baseUrl: config.site!.base_url,
  };
}

export interface LoadedFixtures {
  config: Config;
  posts: PostVersion[];
  catalog: Catalog;
  logs: LogCapture;
}

/** Loads `contentDir` (the fixture posts by default) through the real library and builds the catalog. */
export async function loadCatalog(contentDir = FIXTURE_POSTS, overrides: Parameters<typeof blogConfig>[1] = {}, now = Date.now()): Promise<LoadedFixtures> {
  const config = blogConfig(contentDir, overrides);
  const logs = captureLogs();
  const library = createPostLibrary(contentDir, parseContext(config), logs.logger);
  const { posts } = await library.refresh();
  return { config, posts, catalog: buildCatalog(groupBySlug(posts), config.site!, config.blog!, now), logs };
}

export interface RunningBlog {
  service: HttpService;
  /** The content the service answers from (what /admin and campaigns read). */
  content: BlogContent;
  app: ServiceDriver;
  logs: LogCapture;
  config: Config;
  /** GET (or another method) through the front door; the body parsed as JSON when it is JSON. */
  request(url: string, options?: { method?: string; headers?: Record<string, string> }): Promise<InjectedResponse>;
  close(): Promise<void>;
}

export interface InjectedResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: any;
}

/** The blog service over `contentDir`, with captured logs; `close()` stops the app and the watcher. */
export async function startBlog(
  contentDir = FIXTURE_POSTS,
  options: { overrides?: Parameters<typeof blogConfig>[1]; deps?: Partial<BlogContentDeps> } = {},
): Promise<RunningBlog> {
  const config = blogConfig(contentDir, options.overrides);
  const logs = captureLogs();
  const settings = { site: config.site!, blog: config.blog! };
  const content = await createBlogContent(settings, { logger: logs.logger, rescanIntervalMs: 0, ...options.deps });
  const service = createBlogService(settings, content, { logger: logs.logger, requestLog: logs.requestLog, clientAddressOf: createClientAddressResolver(0) });
  const app = driveService(service);
  return {
    service,
    content,
    app,
    logs,
    config,
    async request(url, requestOptions = {}) {
      const response = await app.inject({
        method: (requestOptions.method ?? 'GET') as 'GET',
        url,
        headers: requestOptions.headers,
      });
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
        json: type.includes('json') && response.body !== '' ? JSON.parse(response.body) : undefined,
      };
    },
    async close() {
      await service.close();
      await content.close();
    },
  };
}

/** The slugs (with `:lang` for non-primary versions) of a /posts answer, in order. */
export function listed(posts: Array<{ slug: string; lang: string; url: string }>): string[] {
  return posts.map((post) => (post.url.includes('?lang=') ? `${post.slug}:${post.lang}` : post.slug));
}
