// Over a real socket the forms service's front door answers as `inject` gets it to: the same statuses, headers
// and bodies, counters and request lines, for every kind of submission.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, it } from 'node:test';
import { contactForm, TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';

const start = useTestFormsService();

const FORMS = [
  contactForm({ rate_limit_per_hour: 1000 }),
  contactForm({ path: '/limited', rate_limit_per_hour: 1 }),
  contactForm({ path: '/thanks', redirect_url: 'https://example.com/thanks' }),
];
const MAX_BODY_BYTES = 2048;

interface Case {
  why: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const VALID = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, a website please' });
const CASES: Case[] = [
  { why: 'valid', path: '/contact', headers: { ...JSON_TYPE, origin: TEST_ORIGIN }, body: VALID },
  { why: 'valid, no Origin', path: '/contact?from=footer', headers: JSON_TYPE, body: VALID },
  { why: 'invalid fields', path: '/contact', headers: { ...JSON_TYPE, origin: TEST_ORIGIN }, body: JSON.stringify({ name: '', email: 'nope', message: 'x' }) },
  { why: 'honeypot', path: '/contact', headers: JSON_TYPE, body: JSON.stringify({ ...JSON.parse(VALID), website: 'spam.example' }) },
  { why: 'honeypot, redirect', path: '/thanks', headers: JSON_TYPE, body: JSON.stringify({ ...JSON.parse(VALID), website: 'spam.example' }) },
  { why: 'valid, redirect', path: '/thanks', headers: { ...JSON_TYPE, origin: TEST_ORIGIN }, body: VALID },
  { why: 'bad JSON', path: '/contact', headers: JSON_TYPE, body: '{"name":' },
  { why: 'a JSON array', path: '/contact', headers: JSON_TYPE, body: '[1]' },
  { why: 'wrong content type', path: '/contact', headers: { 'content-type': 'text/plain' }, body: VALID },
  { why: 'no content type', path: '/contact', headers: {}, body: VALID },
  { why: 'urlencoded', path: '/contact', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ada&email=ada%40example.org&message=Hello+there' },
  { why: 'too large', path: '/contact', headers: JSON_TYPE, body: JSON.stringify({ message: 'x'.repeat(MAX_BODY_BYTES) }) },
  { why: 'forbidden origin', path: '/contact', headers: { ...JSON_TYPE, origin: 'https://evil.example' }, body: VALID },
  { why: 'first on a limited form', path: '/limited', headers: JSON_TYPE, body: VALID },
  { why: 'rate limited', path: '/limited', headers: { ...JSON_TYPE, origin: TEST_ORIGIN }, body: VALID },
];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers Node's HTTP server writes itself (or that depend on the connection), left out of the comparison. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive']);

function comparable(headers: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!CONNECTION_HEADERS.has(name)) kept[name] = String(value);
  return kept;
}

function overSocket(address: string, item: Case): Promise<Answer & { connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${address}${item.path}`, { method: 'POST', headers: item.headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: comparable(response.headers), body, connection: response.headers.connection }),
      );
    });
    request.on('error', reject);
    request.end(item.body);
  });
}

async function viaInject(forms: TestFormsService, item: Case): Promise<Answer & { connection: string | undefined }> {
  const response = await forms.app.inject({ method: 'POST', url: item.path, headers: item.headers, payload: item.body });
  const connection = response.headers.connection;
  return { status: response.statusCode, headers: comparable(response.headers), body: response.body, connection: connection === undefined ? undefined : String(connection) };
}

/** A service on a real socket (closed after the file's tests), and its address. */
async function listening(forms: TestFormsService): Promise<string> {
  const server = await forms.app.listen();
  after(() => server.close(0));
  return server.address;
}

async function startPair(): Promise<{ socket: TestFormsService; address: string; inject: TestFormsService }> {
  const options = { forms: FORMS, extra: { server: { max_body_bytes: MAX_BODY_BYTES } } };
  const socket = await start(options);
  const address = await listening(socket);
  const inject = await start(options);
  return { socket, address, inject };
}

describe('the forms service over a real socket', () => {
  it('answers every kind of submission as inject does: status, headers, body and counters', async () => {
    const { socket, address, inject } = await startPair();
    const statuses: number[] = [];
    for (const item of CASES) {
      const fast = await overSocket(address, item);
      const routed = await viaInject(inject, item);
      assert.equal(fast.status, routed.status, item.why);
      statuses.push(fast.status);
      assert.deepEqual(fast.headers, routed.headers, item.why);
      assert.equal(fast.body, routed.body, item.why);
      // An unread body closes the connection on both.
      if (routed.connection === 'close') assert.equal(fast.connection, 'close', item.why);
    }
    assert.deepEqual([...new Set(statuses)].sort(), [200, 303, 400, 403, 413, 429]);
    assert.deepEqual(await socket.metrics(), await inject.metrics());
    assert.deepEqual(socket.mailer.sent, inject.mailer.sent);
  });

  it('writes the same request lines, without the query string', async () => {
    const { socket, address, inject } = await startPair();
    for (const item of CASES) {
      await overSocket(address, item);
      await viaInject(inject, item);
    }
    const requestLines = (forms: TestFormsService) =>
      forms.logs
        .lines()
        .filter((line) => line.msg === 'request')
        .map((line) => {
          // A refused Origin is named on its line (docs/forms-api.md "Logs").
          const keys = ['duration_ms', 'ip', 'level', 'method', 'msg', 'path', 'status', 'time', ...(line.status === 403 ? ['origin'] : [])];
          assert.deepEqual(Object.keys(line).sort(), keys.sort());
          return { method: line.method, path: line.path, status: line.status, ip: line.ip, origin: line.origin };
        });
    assert.equal(requestLines(socket).length, CASES.length);
    assert.deepEqual(requestLines(socket), requestLines(inject));
    const events = (forms: TestFormsService) => forms.logs.lines().flatMap((line) => (line.event === undefined ? [] : [line.event]));
    assert.deepEqual(events(socket), events(inject));
  });

  it('attributes requests to the forwarded address when proxy headers are trusted, as inject does', async () => {
    const options = { forms: [contactForm({ rate_limit_per_hour: 1 })], extra: { server: { trust_proxy_headers: true } } };
    const socket = await start(options);
    const address = await listening(socket);
    const inject = await start(options);
    // A hop the client sent, then the one the proxy appended.
    const forwardedFrom = (ip: string): Case => ({ why: ip, path: '/contact', headers: { ...JSON_TYPE, 'x-forwarded-for': `10.0.0.1, ${ip}` }, body: VALID });
    // One token per address: the second request from the same forwarded address is limited, another one is not.
    const cases = [forwardedFrom('203.0.113.7'), forwardedFrom('203.0.113.7'), forwardedFrom('198.51.100.2')];
    const fast = [];
    for (const item of cases) {
      fast.push((await overSocket(address, item)).status);
      await viaInject(inject, item);
    }
    assert.deepEqual(fast, [200, 429, 200]);
    const ips = (forms: TestFormsService) => forms.logs.lines().filter((line) => line.msg === 'request').map((line) => line.ip);
    assert.deepEqual(ips(socket), ['203.0.113.7', '203.0.113.7', '198.51.100.2']);
    assert.deepEqual(ips(socket), ips(inject));
  });

  it('answers OPTIONS, other methods and the status routes', async () => {
    const { address } = await startPair();
    const options = await fetch(`${address}/contact`, { method: 'OPTIONS', headers: { origin: TEST_ORIGIN } });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST, OPTIONS');
    const put = await fetch(`${address}/contact`, { method: 'PUT', body: VALID });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'POST, OPTIONS');
    assert.equal((await fetch(`${address}/health`)).status, 200);
    assert.equal((await fetch(`${address}/nothing`, { method: 'POST', body: VALID })).status, 404);
  });
});
