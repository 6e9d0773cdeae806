// Property: whatever body, content type and headers arrive, a form answers only with the documented
// statuses {200, 303, 400, 403, 413, 429, 500}, each with a body of the documented shape, and keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createTestFormsService, TEST_ORIGIN, type TestFormsService } from '../../support/forms-app.js';

const FIELDS = ['name', 'email', 'service', 'message'];
const REDIRECT = 'https://example.com/thanks';

const printable = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~'.split('')), maxLength: 40 });
const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), printable);
const fieldValue = fc.oneof(
  fc.constantFrom('Ada Lovelace', 'ada@example.org', '"quoted local"@example.org', 'Hello! I would like a website.', 'Hosting', ''),
  anyText,
  fc.string({ minLength: 90, maxLength: 600 }),
);
const jsonValue = fc.oneof(fieldValue, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fieldValue, { maxLength: 3 }), fc.dictionary(printable, fieldValue, { maxKeys: 2 }));
const fields = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS, 'website', '__proto__', 'constructor'), printable), jsonValue, { maxKeys: 7 });
const textFields = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS, 'website'), printable), fc.oneof(fieldValue, fc.constant('')), { maxKeys: 6 });

function urlencode(record: Record<string, string | undefined>): string {
  return Object.entries(record).map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value ?? '')}`).join('&');
}

function multipart(record: Record<string, string | undefined>, boundary: string, withFile: boolean): string {
  const parts = Object.entries(record).map(([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/["\r\n]/g, '')}"\r\n\r\n${value ?? ''}\r\n`);
  if (withFile) parts.unshift(`--${boundary}\r\nContent-Disposition: form-data; name="message"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${'f'.repeat(300)}\r\n`);
  return `${parts.join('')}--${boundary}--\r\n`;
}

/** Submissions that often pass validation, so the accepted paths are exercised too. */
const plausible = fc.record(
  {
    name: fc.constantFrom('Ada Lovelace', 'Grace Hopper', '  Katherine Johnson  '),
    email: fc.constantFrom('ada@example.org', 'grace+forms@example.com', '"odd one"@example.net'),
    message: fc.constantFrom('Hello! I would like a website.', 'A message\nwith two lines.'),
    service: fc.constantFrom('Hosting', 'Plumbing'),
    website: fc.constantFrom('', 'http://spam.example'),
  },
  { requiredKeys: ['name', 'email', 'message'] },
);

/** A body together with the content type it claims (which may be a lie). */
const request = fc.oneof(
  fc.tuple(plausible, fc.constantFrom('json', 'urlencoded', 'multipart')).map(([record, shape]) =>
    shape === 'json'
      ? { contentType: 'application/json' as string | undefined, payload: JSON.stringify(record) as string | Uint8Array }
      : shape === 'urlencoded'
        ? { contentType: 'application/x-www-form-urlencoded', payload: urlencode(record) }
        : { contentType: 'multipart/form-data; boundary=pp', payload: multipart(record, 'pp', true) },
  ),
  fields.map((record) => ({ contentType: 'application/json' as string | undefined, payload: JSON.stringify(record) as string | Uint8Array })),
  fc.tuple(textFields, fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8')).map(([record, contentType]) => ({ contentType, payload: urlencode(record) })),
  fc.tuple(textFields, fc.boolean(), fc.constantFrom('b0und', 'x-y_z', '----WebKitFormBoundary7MA4YWxk')).map(([record, withFile, boundary]) => ({
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: multipart(record, boundary, withFile),
  })),
  fc.tuple(fc.oneof(fc.json(), anyText), fc.oneof(fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=zz', 'text/plain', 'application/xml', '', ';;', 'application/json; charset=latin1', 'MULTIPART/FORM-DATA; boundary="q"'), printable, fc.constant(undefined))).map(([payload, contentType]) => ({ contentType, payload })),
  fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=b', undefined)).map(([payload, contentType]) => ({ contentType, payload })),
  fc.integer({ min: 2_000, max: 6_000 }).map((size) => ({ contentType: 'application/json' as string | undefined, payload: JSON.stringify({ message: 'x'.repeat(size) }) })),
);

const extraHeaders = fc.dictionary(
  fc.constantFrom('x-forwarded-for', 'x-real-ip', 'accept', 'accept-encoding', 'cookie', 'referer', 'user-agent', 'authorization', 'x-custom', 'content-encoding', 'access-control-request-method'),
  printable,
  { maxKeys: 4 },
);
const origin = fc.oneof(fc.constant(undefined), fc.constant(TEST_ORIGIN), fc.constantFrom('https://evil.example', 'null', 'https://example.com/', ''), printable);

describe('a form under random input', () => {
  let forms: TestFormsService;
  before(async () => {
    forms = await createTestFormsService({
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 60, archive: 'contact.jsonl', services: ['Hosting'] },
        { path: '/thanks', type: 'generic', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0, redirect_url: REDIRECT, require_message: false },
      ],
      extra: { server: { max_body_bytes: 2_000, trust_proxy_headers: true } },
    });
  });
  after(() => forms.close());

  it('answers only documented statuses with bodies of the documented shape', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/contact', '/thanks'),
        request,
        origin,
        extraHeaders,
        fc.boolean(),
        async (path, body, originHeader, headers, mailFails) => {
          forms.mailer.failWhen = () => mailFails;
          const response = await forms.app.inject({
            method: 'POST',
            url: path,
            headers: {
              ...headers,
              ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
              ...(originHeader === undefined ? {} : { origin: originHeader }),
            },
            payload: typeof body.payload === 'string' ? body.payload : Buffer.from(body.payload),
          });
          seen.add(response.statusCode);
          assertDocumentedAnswer(path, response.statusCode, response.headers, response.body);
        },
      ),
      {
        numRuns: 400,
        // Tried first, whatever the seed: an accepted JSON submission and an accepted form post to the redirect form,
        // so the statuses seen always include the success paths (rare among random requests).
        examples: [
          ['/contact', { contentType: 'application/json', payload: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.', service: 'Hosting' }) }, TEST_ORIGIN, {}, false],
          ['/thanks', { contentType: 'application/x-www-form-urlencoded', payload: 'name=Ada&email=ada%40example.org' }, TEST_ORIGIN, {}, false],
        ],
      },
    );
    assert.ok([200, 303, 400, 403, 413, 429, 500].every((status) => seen.has(status)), `statuses seen: ${[...seen].join(', ')}`);
    const health = await forms.app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200);
  });
});

function assertDocumentedAnswer(path: string, status: number, headers: Record<string, unknown>, text: string): void {
  const where = `${status} ${text.slice(0, 200)}`;
  if (status === 303) {
    assert.equal(path, '/thanks', where);
    assert.equal(headers.location, REDIRECT, where);
    assert.equal(text, '', where);
    return;
  }
  assert.match(String(headers['content-type']), /^application\/json/, where);
  const body = JSON.parse(text) as Record<string, unknown>;
  switch (status) {
    case 200:
      assert.deepEqual(body, { ok: true }, where);
      assert.equal(path, '/contact', 'the redirect form never answers 200');
      return;
    case 400:
      if (body.error === 'validation') {
        assert.deepEqual(Object.keys(body).sort(), ['details', 'error'], where);
        assert.ok(Array.isArray(body.details) && body.details.length > 0, where);
        for (const detail of body.details as Array<Record<string, unknown>>) {
          assert.deepEqual(Object.keys(detail).sort(), ['field', 'message'], where);
          assert.ok(FIELDS.includes(String(detail.field)), where);
          assert.equal(typeof detail.message, 'string', where);
        }
        const order = (body.details as Array<{ field: string }>).map((detail) => FIELDS.indexOf(detail.field));
        assert.deepEqual(order, [...order].sort((a, b) => a - b), `details in field order: ${where}`);
      } else {
        assertCodeAndMessage(body, ['invalid_body'], where);
      }
      return;
    case 403:
      assert.deepEqual(body, { error: 'origin_not_allowed' }, where);
      return;
    case 413:
      assertCodeAndMessage(body, ['body_too_large'], where);
      return;
    case 429:
      assertCodeAndMessage(body, ['rate_limited'], where);
      assert.match(String(headers['retry-after']), /^[1-9]\d*$/, where);
      return;
    case 500:
      assertCodeAndMessage(body, ['send_failed', 'storage_failed'], where);
      return;
    default:
      assert.fail(`undocumented status: ${where}`);
  }
}

function assertCodeAndMessage(body: Record<string, unknown>, codes: string[], where: string): void {
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message'], where);
  assert.ok(codes.includes(String(body.error)), where);
  assert.equal(typeof body.message, 'string', where);
}
