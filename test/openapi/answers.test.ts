// Both listeners driven through their front doors as `postbox serve` composes them (docs/openapi.md): every
// documented operation is called at least once, accepted and refused submissions of each kind of form, the
// newsletter's pages, proof of work, /health, /metrics, the bounce webhook, the blog's lists, a post, a draft, a
// 404, a bad query, feeds, media and 304s, and each answer's status, required headers, content type and JSON body
// must be one the listener's own /openapi.json describes. /admin is served on the blog listener, and is not in it.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { composeServices, type ComposedServices } from '../../src/app/compose.js';
import { testHash } from '../admin/admin-app.js';
import { POSTMARK_CREDENTIALS, postmarkRequest } from '../support/bounce-webhooks.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type InjectOptions, type InjectedResponse, type ServiceDriver } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { createAnswerChecker, METHODS, type AnswerChecker, type OpenApiDocument } from './openapi-check.js';

const ORIGIN = 'https://example.com';
const METRICS_TOKEN = 'metrics-token-for-tests';
const MAX_BODY_BYTES = 8192;
/** A PNG's first bytes: enough for the blog's image check. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1')]);
const post = (front: string, body: string) => `+++\n${front}\n+++\n\n${body}\n`;

let remove: () => Promise<void>;
let composed: ComposedServices;
let forms: ServiceDriver;
let blog: ServiceDriver;

before(async () => {
  const temp = await createTempDir('openapi-answers');
  remove = temp.remove;
  const posts = path.join(temp.dir, 'posts');
  await mkdir(path.join(posts, 'trip'), { recursive: true });
  await writeFile(path.join(posts, 'hello.md'), post('title = "Hello"\ndate = 2024-01-02\ntags = ["web", "news"]\ncover = { src = "/img/a.png", alt = "A lake" }', 'Hello, world.'));
  await writeFile(path.join(posts, 'hello.fr.md'), post('title = "Bonjour"\ndate = 2024-01-02\nupdated = 2024-02-01', 'Bonjour tout le monde.'));
  await writeFile(path.join(posts, 'trip', 'index.md'), post('title = "Trip"\ndate = 2024-01-01\nauthor = "Ada"', '![A photo](photo.png) A trip.'));
  await writeFile(path.join(posts, 'trip', 'photo.png'), PNG);
  await writeFile(path.join(posts, 'secret.md'), post('title = "Secret"\ndate = 2024-01-03\ndraft = true', 'Not yet.'));
  const config = loadTestConfig(
    {
      data_dir: 'data',
      site: { title: 'Example', base_url: 'https://example.com', fediverse_creator: '@site@example.social' },
      blog: { listen: '127.0.0.1:0', content_dir: 'posts' },
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com', metrics_token: METRICS_TOKEN, max_body_bytes: MAX_BODY_BYTES },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false, bounces: { webhooks: { postmark: POSTMARK_CREDENTIALS } } },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: [ORIGIN], services: ['Web', 'Print'] },
        { path: '/feedback', allowed_origins: [ORIGIN], type: 'feedback', redirect_url: 'https://example.com/thanks', rate_limit_per_hour: 1 },
        { path: '/generic', allowed_origins: [ORIGIN], type: 'generic', archive: 'generic.jsonl', require_name: false },
        { path: '/news', allowed_origins: [ORIGIN], type: 'newsletter', confirm: 'button' },
        { path: '/letter', type: 'newsletter', allowed_origins: [ORIGIN] },
        { path: '/pow', type: 'contact', allowed_origins: [ORIGIN], spam: { proof_of_work: true, action: 'reject' } },
      ],
      admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
    },
    temp.dir,
  );
  composed = await composeServices(config, captureLogs());
  const service = (name: string) => composed.services.find((candidate) => candidate.name === name)!;
  forms = driveService(service('forms'));
  blog = driveService(service('blog'));
});
after(async () => {
  await composed?.close();
  await remove?.();
});

type Request = InjectOptions & { url: string; method?: string };
const asJson = (body: unknown, origin: string | undefined = ORIGIN): Partial<Request> => ({
  headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
  payload: JSON.stringify(body),
});
const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.' };
const MULTIPART = ['--b', 'Content-Disposition: form-data; name="email"', '', 'ada@example.org', '--b', 'Content-Disposition: form-data; name="message"', '', 'Hello from a multipart form.', '--b--', ''].join('\r\n');
const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };

async function documentOf(driver: ServiceDriver): Promise<OpenApiDocument> {
  const response = await driver.inject('/openapi.json');
  assert.equal(response.statusCode, 200);
  return response.json() as OpenApiDocument;
}

/** Sends each request, checks its answer against the document, and gives the statuses in order. */
async function drive(driver: ServiceDriver, checker: AnswerChecker, requests: Request[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const request of requests) {
    const response: InjectedResponse = await driver.inject(request as InjectOptions);
    const problems = checker.problems({ method: request.method ?? 'GET', url: request.url, status: response.statusCode, headers: response.headers, body: response.body });
    assert.deepEqual(problems, [], `${request.method ?? 'GET'} ${request.url}`);
    statuses.push(response.statusCode);
  }
  return statuses;
}

/** The documented operations no request answered. */
function notAnswered(document: OpenApiDocument, checker: AnswerChecker): string[] {
  return Object.entries(document.paths).flatMap(([documented, item]) =>
    METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${documented}`).filter((operation) => !checker.answered.has(operation)),
  );
}

describe('the forms listener answers as its document says', () => {
  it('for every documented operation, accepted and refused', async () => {
    const document = await documentOf(forms);
    const checker = createAnswerChecker(document);
    const widget = await forms.inject('/altcha.js');
    const ownDocument = await forms.inject('/openapi.json');
    const versionedWidget = Object.keys(document.paths).find((address) => /^\/altcha\.[\w-]+\.js$/.test(address))!;
    const statuses = await drive(forms, checker, [
      { method: 'POST', url: '/contact', ...asJson({ ...ADA, service: 'Web' }) },
      { method: 'POST', url: '/contact', ...asJson({}) },
      { method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: '{"name":' },
      { method: 'POST', url: '/contact', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
      { method: 'POST', url: '/contact', ...asJson(ADA, 'https://evil.example') },
      { method: 'POST', url: '/contact', ...asJson({ ...ADA, message: 'x'.repeat(MAX_BODY_BYTES) }) },
      { method: 'POST', url: '/generic', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=ada%40example.org&message=Hello+from+a+plain+form.' },
      { method: 'POST', url: '/generic', headers: { 'content-type': 'multipart/form-data; boundary=b' }, payload: MULTIPART },
      { method: 'POST', url: '/feedback', ...asJson(ADA) },
      { method: 'POST', url: '/feedback', ...asJson(ADA) },
      { method: 'POST', url: '/news', ...asJson({ email: 'ada@example.org' }) },
      { method: 'POST', url: '/letter', ...asJson({ email: 'not an address' }) },
      { method: 'POST', url: '/pow', ...asJson(ADA) },
      { url: '/pow/challenge', headers: { origin: ORIGIN } },
      { url: '/pow/challenge', headers: { origin: 'https://evil.example' } },
      ...['/contact', '/feedback', '/generic', '/news', '/letter', '/pow'].map((form): Request => ({ method: 'OPTIONS', url: form, headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } })),
      { method: 'OPTIONS', url: '/contact' },
      { method: 'OPTIONS', url: '/contact', headers: { origin: 'https://evil.example' } },
      { url: '/altcha.js' },
      { url: '/altcha.js', headers: { 'if-none-match': String(widget.headers.etag) } },
      { method: 'HEAD', url: '/altcha.js' },
      { url: '/health' },
      { method: 'HEAD', url: '/health' },
      { url: '/metrics' },
      { url: '/metrics', headers: bearer },
      { url: '/metrics?format=prometheus', headers: bearer },
      { method: 'HEAD', url: '/metrics', headers: bearer },
      { url: '/news/confirm?token=unknown' },
      { method: 'POST', url: '/news/confirm?token=unknown' },
      { url: '/letter/confirm?token=unknown' },
      ...['/news', '/letter'].flatMap((form): Request[] => [
        { url: `${form}/unsubscribe?token=unknown` },
        { method: 'POST', url: `${form}/unsubscribe?token=unknown`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' },
      ]),
      { url: '/newsletter/preferences?token=unknown' },
      { method: 'POST', url: '/newsletter/preferences?token=unknown', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=leave_all' },
      { method: 'POST', url: '/bounces/postmark', ...postmarkRequest({ RecordType: 'Bounce' }, { ...POSTMARK_CREDENTIALS, password: 'guessed' }), payload: postmarkRequest({}).body },
      { method: 'POST', url: '/bounces/postmark', headers: postmarkRequest({}).headers, payload: '{"hello":' },
      {
        method: 'POST',
        url: '/bounces/postmark',
        headers: postmarkRequest({}).headers,
        payload: postmarkRequest({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'gone@example.org', From: 'forms@example.com', BouncedAt: '2024-05-01T11:00:00Z', Details: 'smtp;550 5.1.1 unknown' }).body,
      },
      { url: '/favicon.ico' },
      { method: 'HEAD', url: '/favicon.ico' },
      { url: '/openapi.json' },
      { method: 'HEAD', url: '/openapi.json' },
      { url: '/openapi.json', headers: { 'if-none-match': String(ownDocument.headers.etag) } },
      { url: versionedWidget },
      { url: versionedWidget, headers: { 'if-none-match': String(widget.headers.etag) } },
      { method: 'HEAD', url: versionedWidget },
    ]);
    // Each scenario came to the answer it was written for.
    assert.deepEqual(statuses.slice(0, 15), [200, 400, 400, 400, 403, 413, 200, 200, 303, 429, 200, 400, 400, 200, 403]);
    assert.deepEqual(statuses.slice(15), [204, 204, 204, 204, 204, 204, 204, 403, 200, 304, 200, 200, 200, 401, 200, 200, 200, 410, 410, 410, 400, 400, 400, 400, 400, 400, 401, 400, 200, 200, 200, 200, 200, 304, 200, 304, 200]);
    assert.deepEqual(notAnswered(document, checker), []);
  });

  it('answers /openapi.json with an ETag, no-cache and a 304 for the same tag', async () => {
    const first = await forms.inject('/openapi.json');
    assert.equal(first.headers['cache-control'], 'no-cache');
    assert.match(String(first.headers['content-type']), /^application\/json/);
    assert.match(String(first.headers.etag), /^"[\w-]+"$/);
    const again = await forms.inject({ url: '/openapi.json', headers: { 'if-none-match': `W/${String(first.headers.etag)}, "other"` } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal((await forms.inject({ url: '/openapi.json', headers: { 'if-none-match': '"other"' } })).statusCode, 200);
    // Built once: the same bytes every time.
    assert.equal((await forms.inject('/openapi.json')).body, first.body);
  });
});

describe('the blog listener answers as its document says', () => {
  it('for every documented operation: lists, a post, a draft, a 404, a bad query, feeds, media and 304s', async () => {
    const document = await documentOf(blog);
    const checker = createAnswerChecker(document);
    const tag = async (url: string) => String((await blog.inject(url)).headers.etag);
    const readable = ['/health', '/api/blog/site', '/api/blog/posts', '/api/blog/posts/hello', '/api/blog/tags', '/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml', '/api/blog/media/trip/photo.png'];
    const statuses = await drive(blog, checker, [
      { url: '/api/blog/posts?q=hello' },
      { url: '/api/blog/posts?lang=fr&tag=web&limit=1&page=2' },
      { url: '/api/blog/posts?page=0' },
      { url: '/api/blog/posts?limit=101' },
      { url: '/api/blog/posts/hello?lang=fr' },
      { url: '/api/blog/posts/hello?lang=fr&lang=de' },
      { url: '/api/blog/posts/secret' },
      { url: '/api/blog/posts/nothing' },
      { url: '/api/blog/posts/%E0%A4%A' },
      { url: '/api/blog/media/trip/missing.png' },
      { url: '/api/blog/media/secret/photo.png' },
      { method: 'OPTIONS', url: '/api/blog/anything' },
      ...readable.flatMap((url): Request[] => [{ url }, { method: 'HEAD', url }, { method: 'OPTIONS', url }]),
      ...(await Promise.all(readable.filter((url) => url !== '/health').map(async (url): Promise<Request> => ({ url, headers: { 'if-none-match': await tag(url) } })))),
      { url: '/favicon.ico' },
      { method: 'HEAD', url: '/favicon.ico' },
      { url: '/openapi.json' },
      { method: 'HEAD', url: '/openapi.json' },
      { url: '/openapi.json', headers: { 'if-none-match': await tag('/openapi.json') } },
    ]);
    assert.deepEqual(statuses.slice(0, 12), [200, 200, 400, 400, 200, 400, 404, 404, 400, 404, 404, 204]);
    assert.deepEqual(statuses.slice(12, 12 + 3 * readable.length), readable.flatMap(() => [200, 200, 204]));
    assert.deepEqual(statuses.slice(12 + 3 * readable.length), [...readable.slice(1).map(() => 304), 200, 200, 200, 200, 304]);
    assert.deepEqual(notAnswered(document, checker), []);
  });

  it('serves /admin beside the API, and its document leaves it out', async () => {
    assert.equal((await blog.inject('/admin/login')).statusCode, 200);
    const paths = Object.keys((await documentOf(blog)).paths);
    assert.deepEqual(paths.filter((documented) => documented.startsWith('/admin')), []);
    assert.ok(paths.includes('/api/blog/posts/{slug}'));
  });

  it('a body the document does not describe is found: the check is not blind', async () => {
    const checker = createAnswerChecker(await documentOf(blog));
    const site = await blog.inject('/api/blog/site');
    const body = JSON.stringify({ ...site.json(), extra: true });
    assert.match(checker.problems({ method: 'GET', url: '/api/blog/site', status: 200, headers: site.headers, body }).join('\n'), /additional properties/);
    assert.match(checker.problems({ method: 'GET', url: '/api/blog/site', status: 201, headers: site.headers, body: site.body }).join('\n'), /status 201 is not documented/);
    assert.match(checker.problems({ method: 'GET', url: '/api/blog/site', status: 200, headers: { ...site.headers, etag: undefined }, body: site.body }).join('\n'), /ETag is missing/);
    assert.match(checker.problems({ method: 'GET', url: '/api/blog/site', status: 200, headers: { ...site.headers, 'content-type': 'text/html' }, body: site.body }).join('\n'), /content type text\/html/);
  });
});
