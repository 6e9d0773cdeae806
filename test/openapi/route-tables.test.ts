// Every route of the route tables the two services build is in the document that table serves at /openapi.json, and
// every documented operation is routed (docs/openapi.md): a route added without its description, or a description
// left behind by a removed route, fails here. The tables are built by the services' own builders for a
// configuration with every feature (each kind of form, proof of work, both newsletter modes, the metrics token, the
// queue, every bounce provider), then each is compared with what its own /openapi.json route answers.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { WEBHOOK_PROVIDERS, type BounceWebhooks } from '../../src/bounces/intake/webhook-intake.js';
import { createBlogRoutes } from '../../src/blog/http/blog-routes.js';
import { createAnswerPicker } from '../../src/blog/http/encoded-answers.js';
import { createResponseFactory } from '../../src/blog/http/prepared-response.js';
import { createBlogResolver } from '../../src/blog/http/resolve.js';
import type { BlogSnapshot } from '../../src/blog/http/snapshot.js';
import { createBounceRoutes } from '../../src/bounces/http/bounce-routes.js';
import type { CommentStore } from '../../src/comments/comment-store.js';
import type { WebmentionInbox } from '../../src/comments/webmention-inbox.js';
import { createWebmentionRoutes } from '../../src/comments/http/webmention-routes.js';
import { createCommentRoutes } from '../../src/comments/http/comment-routes.js';
import { registerCommentPaths } from '../../src/comments/http/openapi.js';
import type { SpamCheck } from '../../src/forms/spam/spam-check.js';
import { createFormRoutes } from '../../src/forms/http/form-routes.js';
import { createMetrics } from '../../src/forms/metrics.js';
import type { ProofOfWork } from '../../src/forms/spam/proof-of-work.js';
import { FAVICON_ROUTE } from '../../src/http/favicon.js';
import { OPENAPI_PATH } from '../../src/http/openapi/document-route.js';
import type { Route } from '../../src/http/route-table.js';
import { createNewsletterRoutes } from '../../src/newsletter/http/newsletter-routes.js';
import type { Newsletter } from '../../src/newsletter/index.js';
import { loadTestConfig } from '../support/config.js';
import { METHODS, type OpenApiDocument } from './openapi-check.js';

const ORIGIN = 'https://example.com';

/** What the front door adds to a service's table (front-door.ts). */
const DOOR_ROUTES = [FAVICON_ROUTE];

/** The document a table serves, read through the GET handler of its own /openapi.json route. */
async function servedDocument(routes: readonly Route[]): Promise<OpenApiDocument> {
  const route = routes.find((candidate) => candidate.path === OPENAPI_PATH);
  assert.ok(route, 'the table routes /openapi.json');
  const raw = { headers: {} } as IncomingMessage;
  const answer = await route.methods.GET!({ method: 'GET', path: OPENAPI_PATH, url: OPENAPI_PATH, query: '', clientAddress: '127.0.0.1', raw });
  assert.equal(answer.status, 200);
  return JSON.parse(String(answer.body)) as OpenApiDocument;
}

/** The literal start of a documented path: all of it, or what comes before its first `{`. */
const literalOf = (path: string) => (path.includes('{') ? path.slice(0, path.indexOf('{')) : path);

/** Whether the documented `path` is one `route` answers: any path under a prefix (ending with its suffix, if any). */
function isRoutedBy(route: Route, path: string): boolean {
  if (!route.prefix) return route.path === path;
  return path.includes('{') && literalOf(path) === route.path && (route.suffix === undefined || path.endsWith(route.suffix));
}

/** `METHOD path` of every route and method of `routes` the document does not describe. */
function undocumentedRoutes(routes: readonly Route[], document: OpenApiDocument): string[] {
  const missing: string[] = [];
  for (const route of routes) {
    // Any path under a prefix route is described by a templated path that starts with the prefix.
    const paths = Object.keys(document.paths).filter((path) => isRoutedBy(route, path));
    for (const method of Object.keys(route.methods)) {
      // `*` answers the methods a route does not list, as an unknown path would: described in the document's text.
      if (method === '*') continue;
      if (!paths.some((path) => document.paths[path]![method.toLowerCase()])) missing.push(`${method} ${route.path}${route.prefix ? '*' : ''}`);
    }
  }
  return missing;
}

/** `METHOD path` of every documented operation no route of `routes` answers. */
function unroutedOperations(routes: readonly Route[], document: OpenApiDocument): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS.filter((candidate) => item[candidate])) {
      const routed = routes.some((route) => isRoutedBy(route, path) && route.methods[method.toUpperCase()] !== undefined);
      if (!routed) missing.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return missing;
}

function formsTable(): Route[] {
  const config = loadTestConfig(
    {
      data_dir: 'data',
      server: { public_url: 'https://forms.example.com', metrics_token: 'secret-token' },
      mail: { from: 'forms@example.com', to: 'owner@example.com' },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: [ORIGIN], services: ['Web', 'Print'] },
        { path: '/feedback', type: 'feedback', redirect_url: 'https://example.com/thanks' },
        { path: '/generic', type: 'generic', rate_limit_per_hour: 0 },
        { path: '/news', type: 'newsletter', confirm: 'button' },
        { path: '/letter', type: 'newsletter' },
        { path: '/pow', type: 'contact', allowed_origins: [ORIGIN], spam: { proof_of_work: true } },
      ],
    },
    '/tmp',
  );
  const { forms } = config;
  const powOf = { issue: async () => ({}) as never, check: async () => undefined } as ProofOfWork;
  // The tables as forms-service.ts builds them: the forms' routes, the newsletter pages', then the bounce webhooks'.
  const webhooks: BounceWebhooks = { providers: WEBHOOK_PROVIDERS, receive: async () => ({ kind: 'not_configured' }) };
  const routes = createFormRoutes({
    forms,
    metrics: createMetrics(forms.map((form) => form.path)),
    formCount: forms.length,
    metricsToken: config.server.metrics_token,
    queueCounts: () => ({ pending: 0, failed: 0, fsyncs: 0 }),
    submitFlowOf: () => async () => ({ kind: 'accepted' }),
    proofOfWorkOf: (form) => (form.spam.proof_of_work ? powOf : undefined),
    clock: () => 0,
    bounceProviders: webhooks.providers,
  });
  routes.push(...createNewsletterRoutes(forms, {} as Newsletter, () => ({ name: 'Example', url: ORIGIN })));
  routes.push(...createBounceRoutes(webhooks, config.server.max_body_bytes));
  return [...routes, ...DOOR_ROUTES];
}

/** The blog's table; `withComments` mounts the comment routes beside it, as app/comment-routes.ts does. */
function blogTable(withComments = false): Route[] {
  const respond = createResponseFactory(60);
  const comments = withComments
    ? createCommentRoutes(
        { moderation: 'first', closeAfterDays: undefined, spamAction: 'quarantine', allowedOrigins: [ORIGIN] },
        { store: {} as CommentStore, spam: {} as SpamCheck, render: (text) => text, createId: () => 'id', clock: () => 0, findPost: () => undefined, limiter: undefined, rateLimitKey: (address) => address },
      ).concat(
        createWebmentionRoutes(
          { publicUrl: ORIGIN, privateSources: false, closeAfterDays: undefined },
          { findTarget: () => undefined, limiter: { take: () => ({ allowed: true }) }, inbox: {} as WebmentionInbox, wake: () => undefined, createId: () => 'id', clock: () => 0 },
        ),
      )
    : [];
  const routes = createBlogRoutes({
    current: () => ({}) as BlogSnapshot,
    resolver: createBlogResolver(respond),
    readMedia: async () => null,
    respond,
    pick: createAnswerPicker(),
    documentParts: withComments ? [registerCommentPaths] : [],
  });
  return [...comments, ...routes, ...DOOR_ROUTES];
}

describe('the route tables and their documents', () => {
  it('the forms listener: every route and method is documented, and every documented operation routed', async () => {
    const routes = formsTable();
    const document = await servedDocument(routes);
    assert.deepEqual(undocumentedRoutes(routes, document), []);
    assert.deepEqual(unroutedOperations(routes, document), []);
    // The table is the whole service: every form, its challenge, both newsletter pages, every provider.
    assert.ok(routes.length >= 20, `${routes.length} routes`);
  });

  it('the blog listener: every route and method is documented, and every documented operation routed', async () => {
    const routes = blogTable();
    const document = await servedDocument(routes);
    assert.deepEqual(undocumentedRoutes(routes, document), []);
    assert.deepEqual(unroutedOperations(routes, document), []);
  });

  it('the blog listener with [blog.comments]: the comment routes are documented too', async () => {
    const routes = blogTable(true);
    const document = await servedDocument(routes);
    assert.deepEqual(undocumentedRoutes(routes, document), []);
    assert.deepEqual(unroutedOperations(routes, document), []);
    assert.ok(document.paths['/api/blog/posts/{slug}/comments']?.post, 'POST a comment');
    assert.ok(document.paths['/webmention']?.post, 'POST a webmention');
    assert.equal((await servedDocument(blogTable())).paths['/api/blog/posts/{slug}/comments'], undefined, 'without comments, no comment paths');
  });

  it('a route added to a table without a description is found, and so is a description without its route', async () => {
    const routes = blogTable();
    const document = await servedDocument(routes);
    const handler = routes[0]!.methods.GET!;
    const grown = [...routes, { path: '/api/blog/archive', methods: { GET: handler } }, { path: '/api/blog/files/', prefix: true, methods: { GET: handler } }];
    assert.deepEqual(undocumentedRoutes(grown, document), ['GET /api/blog/archive', 'GET /api/blog/files/*']);
    const withoutTags = routes.filter((route) => route.path !== '/api/blog/tags');
    assert.deepEqual(unroutedOperations(withoutTags, document).sort(), ['GET /api/blog/tags', 'HEAD /api/blog/tags', 'OPTIONS /api/blog/tags']);
    const forms = formsTable();
    const withoutHead = forms.map((route) => (route.path === '/health' ? { ...route, methods: { GET: route.methods.GET! } } : route));
    assert.deepEqual(unroutedOperations(withoutHead, await servedDocument(forms)), ['HEAD /health']);
  });
});
