// A fuzzer over the production path: both services built by the composition root and listening on real sockets,
// sent raw HTTP requests with odd methods, paths, headers and bodies. Every answer must be well-formed HTTP with
// a documented status, every JSON body in the catalogue's shape, and the process keeps serving.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startServices, type RunningServices } from '../../src/cli/serve.js';
import { FIXTURE_POSTS, SITE } from '../blog/fixture.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';

let running: RunningServices;
let logs: LogCapture;
let removeDataDir: () => Promise<void>;

before(async () => {
  const temp = await createTempDir('fuzz');
  removeDataDir = temp.remove;
  const config = loadTestConfig(
    {
      data_dir: temp.dir,
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com', max_body_bytes: 4096, metrics_token: 'token-1' },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com' },
      site: SITE,
      blog: { listen: '127.0.0.1:0', content_dir: FIXTURE_POSTS },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0, archive: 'contact.jsonl', redirect_url: 'https://example.com/thanks' },
        { path: '/news', type: 'newsletter', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 },
      ],
    },
    temp.dir,
  );
  logs = captureLogs();
  running = await startServices(config, { logger: logs.logger, requestLog: logs.requestLog });
});

after(async () => {
  await running.stop();
  await removeDataDir();
});

// 417: Node answers an Expect other than 100-continue itself (RFC 9110 section 10.1.1).
const STATUSES = new Set([200, 204, 303, 304, 400, 401, 403, 404, 405, 408, 410, 413, 414, 417, 429, 431, 500, 505]);
const JSON_SHAPES = /^\{"(error|ok|status|page|tags|title|totals|version|slug)"/;

const pathPart = fc.oneof(
  fc.constantFrom('/contact', '/news', '/news/confirm', '/health', '/metrics', '/api/blog/posts', '/api/blog/posts/alpha', '/api/blog/site', '/api/blog/feed.xml', '/api/blog/', '/'),
  fc.string({ unit: fc.constantFrom('/', 'a', '%', '2', 'F', 'E', '0', '.', '?', '&', '=', '#', 'é', ' ', '\u0000'), maxLength: 20 }).map((tail) => `/${tail}`),
);
const query = fc.oneof(fc.constant(''), fc.constantFrom('?token=abc', '?q=%C3%89T%C3%89&page=2', '?page=0', '?lang=fr&lang=de', '?limit=1e3', '?token=%'));
const headerValue = fc.oneof(
  fc.constantFrom('https://example.com', 'https://evil.example', 'null', '', '*', 'application/json', 'multipart/form-data; boundary=x', '"etag"', 'Bearer token-1', '1.2.3.4, ::1'),
  fc.string({ unit: fc.constantFrom('a', ' ', '\t', 'é', ';', '=', '"', ','), maxLength: 30 }),
);
const headerName = fc.constantFrom('Origin', 'Content-Type', 'If-None-Match', 'Authorization', 'X-Forwarded-For', 'Expect', 'Accept', 'X-Odd');
const rawRequest = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'BREW', 'get'),
  path: pathPart,
  query,
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
  body: fc.oneof(fc.constant(''), fc.json(), fc.string({ maxLength: 200 }), fc.constant('{"name":"Ada Lovelace","email":"ada@example.org","message":"Hello, a website please"}')),
});

/** Sends `text` on a new connection and returns everything the server wrote before closing it. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(received) : reject(error)));
    socket.on('close', () => resolve(received));
    socket.end(text);
  });
}

function portOf(address: string): number {
  return Number(new URL(address).port);
}

describe('raw requests on real sockets', () => {
  for (const service of ['forms', 'blog'] as const) {
    it(`${service}: every answer is well-formed, documented and in the catalogue's shape`, async () => {
      const port = portOf(running.addresses[service]!);
      await fc.assert(
        fc.asyncProperty(rawRequest, async (request) => {
          const body = Buffer.from(request.body, 'utf8');
          const headers = request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
          const text = `${request.method} ${request.path}${request.query} HTTP/1.1\r\nHost: localhost\r\n${headers}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${request.body}`;
          const answer = await exchange(port, text);
          const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
          assert.ok(status, `no status line for ${JSON.stringify(text)}: ${JSON.stringify(answer.slice(0, 80))}`);
          assert.ok(STATUSES.has(Number(status[1])), `status ${status[1]} for ${JSON.stringify(text)}`);
          const split = answer.indexOf('\r\n\r\n');
          const head = answer.slice(0, split);
          const payload = answer.slice(split + 4);
          if (/content-type: application\/json/i.test(head) && payload !== '') {
            assert.match(payload, JSON_SHAPES, `${JSON.stringify(text)} -> ${payload.slice(0, 80)}`);
            const parsed = JSON.parse(payload) as Record<string, unknown>;
            if (Number(status[1]) >= 400) assert.equal(typeof parsed.error, 'string');
          }
          if (Number(status[1]) === 500) assert.doesNotMatch(payload, /at |Error:|node:/);
        }),
        { numRuns: 300 },
      );
      assert.equal(logs.lines().filter((line) => line.event === 'internal_error').length, 0, 'no request reached the error boundary');
      const health = await fetch(`${running.addresses[service]}/health`);
      assert.equal(health.status, 200);
    });
  }
});
