// The headers every answer of both listeners carries, set once where every answer leaves (docs/forms-api.md "HTTP
// details"): nosniff on JSON, feeds, media, pages, /admin, errors and 404s, Node's own parse errors included;
// /favicon.ico answered on both listeners; noindex on /admin and on the newsletter's pages; /health never cached.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminAssetPath } from '../../src/admin/admin-assets.js';
import { composeServices, type ComposedServices } from '../../src/app/compose.js';
import type { Answer } from '../../src/http/answer.js';
import { errorAnswer } from '../../src/http/error-catalogue.js';
import { FAVICON_PATH } from '../../src/http/favicon.js';
import { createFrontDoor } from '../../src/http/front-door.js';
import type { HttpService } from '../../src/http/http-service.js';
import { testHash } from '../admin/admin-app.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type InjectedResponse, type InjectOptions, type ServiceDriver } from '../support/http.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';

/** A PNG's first bytes: enough for the blog's image check. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1')]);
const post = (title: string) => `+++\ntitle = "${title}"\ndate = 2024-01-01\n+++\n\n![A photo](photo.png) Text of ${title}.\n`;
const JSON_HEADERS = { 'content-type': 'application/json' };

let remove: () => Promise<void>;
let composed: ComposedServices;
let logs: LogCapture;
let forms: ServiceDriver;
let blog: ServiceDriver;
let blogService: HttpService;

before(async () => {
  const temp = await createTempDir('every-answer');
  remove = temp.remove;
  await mkdir(path.join(temp.dir, 'posts', 'trip'), { recursive: true });
  await writeFile(path.join(temp.dir, 'posts', 'hello.md'), post('Hello'));
  await writeFile(path.join(temp.dir, 'posts', 'trip', 'index.md'), post('Trip'));
  await writeFile(path.join(temp.dir, 'posts', 'trip', 'photo.png'), PNG);
  const config = loadTestConfig(
    {
      data_dir: 'data',
      site: { title: 'Example', base_url: 'https://example.com' },
      blog: { listen: '127.0.0.1:0', content_dir: 'posts' },
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
      forms: [
        { path: '/contact', type: 'contact', rate_limit_per_hour: 0 },
        { path: '/newsletter', type: 'newsletter', rate_limit_per_hour: 0, confirm: 'button' },
      ],
      admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
    },
    temp.dir,
  );
  logs = captureLogs();
  composed = await composeServices(config, logs);
  const service = (name: string) => composed.services.find((candidate) => candidate.name === name)!;
  forms = driveService(service('forms'));
  blogService = service('blog');
  blog = driveService(blogService);
});
after(async () => {
  await composed.close();
  await remove();
});

type Request = InjectOptions & { url: string };

/** Each request of `requests` on `driver`, with what it was answered. */
async function answersTo(driver: ServiceDriver, requests: Request[]): Promise<Array<[string, InjectedResponse]>> {
  const answered: Array<[string, InjectedResponse]> = [];
  for (const request of requests) answered.push([`${request.method ?? 'GET'} ${request.url}`, await driver.inject(request)]);
  return answered;
}

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it('on the forms listener: submissions, refusals, preflights, 405, 404, /health, /metrics and the newsletter pages', async () => {
    const answered = await answersTo(forms, [
      { method: 'POST', url: '/contact', headers: JSON_HEADERS, payload: JSON.stringify({ name: 'Ada', email: 'ada@example.org', message: 'Hello there, a website' }) },
      { method: 'POST', url: '/contact', headers: JSON_HEADERS, payload: '{"name":' },
      { method: 'POST', url: '/contact', headers: JSON_HEADERS, payload: '{}' },
      { method: 'POST', url: '/contact', headers: { ...JSON_HEADERS, origin: 'https://evil.example' }, payload: '{}' },
      { method: 'OPTIONS', url: '/contact' },
      { method: 'GET', url: '/contact' },
      { method: 'GET', url: '/health' },
      { method: 'GET', url: '/metrics' },
      { method: 'GET', url: '/no-such-path' },
      { method: 'GET', url: '/files/%E0%A4%A' },
      { method: 'GET', url: '/newsletter/confirm?token=unknown' },
      { method: 'GET', url: '/newsletter/unsubscribe?token=unknown' },
      { method: 'POST', url: '/newsletter/unsubscribe?token=unknown' },
      { method: 'GET', url: FAVICON_PATH },
    ]);
    const statuses = new Set(answered.map(([, response]) => response.statusCode));
    assert.deepEqual([...statuses].sort(), [200, 204, 400, 403, 404, 405, 410]);
    for (const [what, response] of answered) assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
  });

  it('on the blog listener: JSON, 304, feeds, sitemap, media, preflight, 405, 404 and /admin, once each', async () => {
    const first = await blog.inject('/api/blog/posts');
    const answered = await answersTo(blog, [
      { url: '/api/blog/site' },
      { url: '/api/blog/posts/hello' },
      { url: '/api/blog/posts', headers: { 'if-none-match': String(first.headers.etag) } },
      { url: '/api/blog/feed.xml' },
      { url: '/api/blog/feed.json' },
      { url: '/api/blog/sitemap.xml' },
      { url: '/api/blog/media/trip/photo.png' },
      { method: 'HEAD', url: '/api/blog/tags' },
      { method: 'OPTIONS', url: '/api/blog/posts' },
      { method: 'POST', url: '/api/blog/posts' },
      { url: '/api/blog/posts/nothing' },
      { url: '/api/blog/posts?page=0' },
      { url: '/elsewhere' },
      { url: '/health' },
      { url: '/admin/login' },
      { url: '/admin/posts' },
      { url: adminAssetPath('admin.css') },
      { url: '/admin/no-such-page' },
      { url: FAVICON_PATH },
    ]);
    const statuses = new Set(answered.map(([, response]) => response.statusCode));
    assert.deepEqual([...statuses].sort(), [200, 204, 303, 304, 400, 404, 405]);
    // Exactly one value: the media route's own header is not doubled.
    for (const [what, response] of answered) assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
    // The same prepared answer again: the list the writer completed is reused, not grown.
    assert.equal((await blog.inject('/api/blog/site')).headers['x-content-type-options'], 'nosniff');
  });

  it('on an answer Node writes itself, for a request it could not parse', async () => {
    const server = await blog.listen();
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(server.address).port), '127.0.0.1');
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      });
      assert.match(raw, /^HTTP\/1\.1 400 /);
      assert.match(raw, /\r\nX-Content-Type-Options: nosniff\r\n/);
      assert.match(raw, /\r\naccess-control-allow-origin: \*\r\n/i);
    } finally {
      await server.close(0);
    }
  });

  it('is added by the writer to answers a route prepared without it, frozen records and flat lists alike', async () => {
    const frozen: Answer = { status: 204, headers: Object.freeze({ 'cache-control': 'no-store' }) };
    const list: Answer = { status: 200, headers: ['content-type', 'text/plain', 'content-length', '2'], body: 'ok' };
    const handle = createFrontDoor({
      routes: [
        { path: '/frozen', methods: { GET: () => frozen } },
        { path: '/list', methods: { GET: () => list } },
      ],
      answers: { notFound: () => errorAnswer('not_found'), badPath: () => errorAnswer('bad_request'), methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }), internalError: () => errorAnswer('internal_error') },
      clientAddressOf: () => '192.0.2.1',
      requestLog: logs.requestLog,
      logger: logs.logger,
    });
    const door = driveService({ handle, serverSettings: { maxBodyBytes: 0 } });
    for (const url of ['/frozen', '/list', '/list', '/missing']) assert.equal((await door.inject(url)).headers['x-content-type-options'], 'nosniff', url);
    assert.deepEqual(list.headers, ['content-type', 'text/plain', 'content-length', '2'], "a prepared list is left as the route made it");
  });
});

describe('/favicon.ico', () => {
  it('is a small icon with a long cache on both listeners, for GET and HEAD, logged as a 200 and nothing else', async () => {
    for (const driver of [forms, blog]) {
      const icon = await driver.inject(FAVICON_PATH);
      assert.equal(icon.statusCode, 200);
      assert.equal(icon.headers['content-type'], 'image/x-icon');
      assert.match(String(icon.headers['cache-control']), /^public, max-age=\d{7,}/);
      assert.deepEqual([...icon.rawPayload.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
      assert.equal(Number(icon.headers['content-length']), icon.rawPayload.length);
      const head = await driver.inject({ method: 'HEAD', url: FAVICON_PATH });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal((await driver.inject({ method: 'POST', url: FAVICON_PATH })).statusCode, 405);
    }
    logs.requestLog.flush();
    const lines = logs.lines().filter((line) => line.path === FAVICON_PATH && line.method !== 'POST');
    assert.ok(lines.length >= 4);
    for (const line of lines) assert.deepEqual([line.msg, line.level, line.status], ['request', 30, 200]);
    assert.deepEqual(logs.lines().filter((line) => Number(line.level) >= 40 && String(line.path ?? '').includes('favicon')), []);
  });

  it('is named by every admin page as its icon', async () => {
    const page = await blog.inject('/admin/login');
    assert.match(page.body, /<link rel="icon" href="\/favicon\.ico"\/?>/);
  });

  it('stays the service\'s own when its routes have the path', async () => {
    const own: Answer = { status: 204, headers: { 'cache-control': 'no-store' } };
    const handle = createFrontDoor({
      routes: [{ path: FAVICON_PATH, methods: { GET: () => own } }],
      answers: { notFound: () => errorAnswer('not_found'), badPath: () => errorAnswer('bad_request'), methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }), internalError: () => errorAnswer('internal_error') },
      clientAddressOf: () => '192.0.2.1',
      requestLog: logs.requestLog,
      logger: logs.logger,
    });
    assert.equal((await driveService({ handle, serverSettings: { maxBodyBytes: 0 } }).inject(FAVICON_PATH)).statusCode, 204);
  });
});

describe('X-Robots-Tag: noindex', () => {
  it('on every /admin answer: pages, redirects, assets, refusals and 404s', async () => {
    const answered = await answersTo(blog, [
      { url: '/admin' },
      { url: '/admin/login' },
      { url: adminAssetPath('admin.css') },
      { url: '/admin/no-such-page' },
      { method: 'POST', url: '/admin/login', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: 'name=jane&password=x' },
    ]);
    for (const [what, response] of answered) assert.equal(response.headers['x-robots-tag'], 'noindex', what);
  });

  it("on the newsletter's confirmation and unsubscribe pages, and says so in their HTML too", async () => {
    for (const request of [
      { method: 'GET', url: '/newsletter/confirm?token=unknown' },
      { method: 'POST', url: '/newsletter/confirm?token=unknown' },
      { method: 'GET', url: '/newsletter/unsubscribe?token=unknown' },
      { method: 'POST', url: '/newsletter/unsubscribe?token=unknown' },
    ] as const) {
      const response = await forms.inject(request);
      assert.equal(response.headers['x-robots-tag'], 'noindex', `${request.method} ${request.url}`);
      assert.match(response.body, /<meta name="robots" content="noindex"\/?>/);
    }
  });

  it('not on the APIs, which are meant to be read', async () => {
    assert.equal((await blog.inject('/api/blog/posts')).headers['x-robots-tag'], undefined);
    assert.equal((await forms.inject('/health')).headers['x-robots-tag'], undefined);
  });
});

describe('GET /health', () => {
  it('is never cached, on either listener, while ok', async () => {
    for (const driver of [forms, blog]) {
      const health = await driver.inject('/health');
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers['cache-control'], 'no-store');
      assert.equal((await driver.inject({ method: 'HEAD', url: '/health' })).headers['cache-control'], 'no-store');
    }
  });
});
