// CORS rules 1-4 and the preflight (docs/forms-api.md "OPTIONS <path>"), 405 with Allow, 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestFormsService, TEST_ORIGIN, type TestFormsService } from '../../support/forms-app.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };
const CORS_HEADERS = {
  'access-control-allow-origin': TEST_ORIGIN,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type',
  vary: 'Origin',
};

function corsHeadersOf(headers: Record<string, unknown>) {
  return Object.fromEntries(Object.keys(CORS_HEADERS).filter((name) => name in headers).map((name) => [name, headers[name]]));
}

describe('CORS', () => {
  let forms: TestFormsService;
  before(async () => {
    forms = await createTestFormsService({
      forms: [{ path: '/contact', type: 'contact', allowed_origins: [TEST_ORIGIN, 'http://localhost:3000'], rate_limit_per_hour: 0 }],
      extra: { server: { max_body_bytes: 300 } },
    });
  });
  after(() => forms.close());

  const post = (origin: string | undefined, payload: unknown = ADA) =>
    forms.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/json', ...(origin === undefined ? {} : { origin }) },
      payload: JSON.stringify(payload),
    });

  it('preflight from an allowed origin: 204, no body, the four headers echoing the origin', async () => {
    const response = await forms.app.inject({
      method: 'OPTIONS',
      url: '/contact',
      headers: { origin: TEST_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.deepEqual(corsHeadersOf(response.headers), CORS_HEADERS);
  });

  it('preflight from another listed origin echoes that origin', async () => {
    const response = await forms.app.inject({ method: 'OPTIONS', url: '/contact', headers: { origin: 'http://localhost:3000' } });
    assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:3000');
  });

  it('preflight from an origin not listed: 403 {"error":"origin_not_allowed"} without CORS headers, counted', async () => {
    const before = (await forms.metrics()).forms['/contact']?.origin_blocked ?? 0;
    const response = await forms.app.inject({ method: 'OPTIONS', url: '/contact', headers: { origin: 'https://evil.example' } });
    assert.equal(response.statusCode, 403);
    assert.deepEqual(response.json(), { error: 'origin_not_allowed' });
    assert.deepEqual(corsHeadersOf(response.headers), {});
    assert.equal((await forms.metrics()).forms['/contact']?.origin_blocked, before + 1);
  });

  it('rule 1: POST without Origin is allowed and gets no CORS headers', async () => {
    const response = await post(undefined);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(corsHeadersOf(response.headers), {});
  });

  it('rule 2: POST with an Origin not listed is 403 without message; not received, nothing sent', async () => {
    const metricsBefore = (await forms.metrics()).forms['/contact'];
    const sentBefore = forms.mailer.sent.length;
    for (const origin of ['https://evil.example', 'https://example.com/', 'https://EXAMPLE.com', 'null', '']) {
      const response = await post(origin);
      assert.equal(response.statusCode, 403, origin);
      assert.deepEqual(response.json(), { error: 'origin_not_allowed' });
      assert.equal(response.headers['access-control-allow-origin'], undefined);
    }
    const metricsAfter = (await forms.metrics()).forms['/contact'];
    assert.equal(metricsAfter?.origin_blocked, (metricsBefore?.origin_blocked ?? 0) + 5);
    assert.equal(metricsAfter?.received, metricsBefore?.received);
    assert.equal(forms.mailer.sent.length, sentBefore);
  });

  it('the request line of a refused origin names it (cleaned and capped); other lines carry no origin', async () => {
    const requestLines = () => forms.logs.lines().filter((line) => line.msg === 'request');
    const since = requestLines().length;
    await post('http://localhost:1313');
    await forms.app.inject({ method: 'OPTIONS', url: '/contact', headers: { origin: 'http://localhost:1313' } });
    await post(`https://\u007fx\t.example${'a'.repeat(400)}`);
    await post(TEST_ORIGIN);
    await post(undefined);
    const lines = requestLines().slice(since);
    assert.deepEqual(
      lines.map((line) => [line.method, line.status, line.origin]),
      [
        ['POST', 403, 'http://localhost:1313'],
        ['OPTIONS', 403, 'http://localhost:1313'],
        ['POST', 403, `https://x.example${'a'.repeat(300 - 'https://x.example'.length)}`],
        ['POST', 200, undefined],
        ['POST', 200, undefined],
      ],
    );
  });

  it('rule 3: an allowed Origin gets the CORS headers on success and on every error answer', async () => {
    assert.deepEqual(corsHeadersOf((await post(TEST_ORIGIN)).headers), CORS_HEADERS);
    const validation = await post(TEST_ORIGIN, { email: 'nope' });
    assert.equal(validation.statusCode, 400);
    assert.deepEqual(corsHeadersOf(validation.headers), CORS_HEADERS);
    const tooLarge = await post(TEST_ORIGIN, { ...ADA, message: 'x'.repeat(400) });
    assert.equal(tooLarge.statusCode, 413);
    assert.deepEqual(corsHeadersOf(tooLarge.headers), CORS_HEADERS);
    const invalid = await forms.app.inject({ method: 'POST', url: '/contact', headers: { origin: TEST_ORIGIN, 'content-type': 'text/plain' }, payload: 'x' });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(corsHeadersOf(invalid.headers), CORS_HEADERS);
  });

  it('rule 4: a same-origin form post is checked like any other (its origin must be listed)', async () => {
    const response = await forms.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { origin: 'http://localhost:8080', host: 'localhost:8080', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ada+Lovelace&email=ada%40example.org&message=Hello+there+friend',
    });
    assert.equal(response.statusCode, 403);
  });
});

describe('methods and paths', () => {
  let forms: TestFormsService;
  before(async () => {
    forms = await createTestFormsService();
  });
  after(() => forms.close());

  for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'TRACE'] as const) {
    it(`${method} on a form path: 405, Allow: POST, OPTIONS, empty body`, async () => {
      const response = await forms.app.inject({ method, url: '/contact', ...(method === 'PUT' ? { payload: 'x' } : {}) });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'POST, OPTIONS');
      assert.equal(response.body, '');
      assert.equal(response.headers['content-length'] ?? '0', '0');
    });
  }

  it('405 also with a query string and a malformed Content-Type', async () => {
    const response = await forms.app.inject({ method: 'PUT', url: '/contact?x=1', headers: { 'content-type': '((' }, payload: '{}' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'POST, OPTIONS');
  });

  it('unknown paths: 404 {"error":"not_found"}', async () => {
    for (const url of ['/', '/nope', '/contact/', '/contact/extra', '/CONTACT']) {
      const response = await forms.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{}' });
      assert.equal(response.statusCode, 404, url);
      assert.deepEqual(response.json(), { error: 'not_found' });
    }
  });

  it('GET <path>/confirm on a non-newsletter form is 404', async () => {
    const response = await forms.app.inject({ method: 'GET', url: '/contact/confirm?token=abc' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'not_found' });
  });

  it('a POST with a query string reaches the form', async () => {
    const response = await forms.app.inject({
      method: 'POST',
      url: '/contact?utm_source=x',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(ADA),
    });
    assert.equal(response.statusCode, 200);
  });

  it('a malformed path answers 400 without echoing it, and still gets its request log line', async () => {
    const response = await forms.app.inject({ method: 'GET', url: '/%zz-SECRET' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(Object.keys(response.json()).sort(), ['error', 'message']);
    assert.doesNotMatch(response.body, /SECRET/);
    const line = forms.logs.lines().find((entry) => entry.msg === 'request' && entry.status === 400);
    assert.equal(line?.method, 'GET');
  });
});
