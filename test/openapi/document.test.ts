// The OpenAPI documents of both listeners (docs/openapi.md), built from a configuration: valid OpenAPI 3.1 (every
// reference resolving, every schema compiling in Ajv's 2020-12 mode), and written from the rules the code checks
// with: a form's body schema accepts and refuses what the validation does for that form's settings, its error codes
// follow its settings, /metrics names its forms, and the /posts parameters refuse what the query parser refuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseQuery } from 'node:querystring';
import { MAX_PAGE_SIZE } from '../../src/blog/catalog/query.js';
import { parsePostsQuery } from '../../src/blog/catalog/query.js';
import { createBlogDocument } from '../../src/blog/http/openapi.js';
import { registerCommentPaths } from '../../src/comments/http/openapi.js';
import type { FormConfig } from '../../src/config/config.js';
import { createFormsDocument, type FormsDocumentSource } from '../../src/forms/http/openapi.js';
import { checkSubmission } from '../../src/forms/rules/submission.js';
import { loadTestConfig, type TomlTable } from '../support/config.js';
import { createAnswerChecker, deref, documentProblems, type Json, type OpenApiDocument } from './openapi-check.js';

const ORIGIN = 'https://example.com';

function formsOf(forms: TomlTable[], server: TomlTable = {}): readonly FormConfig[] {
  return loadTestConfig({ data_dir: 'data', server: { public_url: 'https://forms.example.com', ...server }, mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms }, '/tmp').forms;
}

function formsDocument(forms: readonly FormConfig[], source: Partial<FormsDocumentSource> = {}): OpenApiDocument {
  const document = createFormsDocument(
    { forms, proofOfWorkOf: (form) => (form.spam.proof_of_work ? {} : undefined), metricsToken: undefined, ...source },
    '/altcha.js',
  );
  // As a client reads it: through JSON.
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}

const EVERY_FEATURE = formsOf(
  [
    { path: '/contact', type: 'contact', allowed_origins: [ORIGIN], services: ['Web', 'Print'], archive: 'contact.jsonl' },
    { path: '/feedback', type: 'feedback', redirect_url: 'https://example.com/thanks', rate_limit_per_hour: 0, require_name: false },
    { path: '/generic', type: 'generic', honeypot_field: 'fax', spam: { captcha: { provider: 'turnstile', secret: 's' } } },
    { path: '/news', type: 'newsletter', confirm: 'button' },
    { path: '/letter', type: 'newsletter' },
    { path: '/pow', type: 'contact', allowed_origins: [ORIGIN], spam: { proof_of_work: true, action: 'reject' } },
  ],
  { metrics_token: 'secret-token' },
);

const operation = (document: OpenApiDocument, path: string, method: string) => document.paths[path]?.[method] as Record<string, Json> | undefined;
const responsesOf = (document: OpenApiDocument, path: string, method: string) => (operation(document, path, method)?.responses ?? {}) as Record<string, Json>;
/** The error codes a response's body allows, its references followed. */
function codesOf(document: OpenApiDocument, response: Json | undefined): string[] {
  const schema = (deref(document, response) as { content?: Record<string, { schema: Json }> }).content?.['application/json']?.schema;
  const variants = ((schema as { anyOf?: Json[] })?.anyOf ?? [schema]).map((variant) => deref(document, variant) as { properties?: { error?: { enum?: string[] } } });
  return variants.flatMap((variant) => variant.properties?.error?.enum ?? []).sort();
}

describe('the documents are OpenAPI 3.1', () => {
  it('the forms listener\'s, with every kind of form, proof of work, a captcha, a metrics token, the queue and bounce webhooks', () => {
    const document = formsDocument(EVERY_FEATURE, { metricsToken: 'secret-token', queueCounts: () => ({}), bounceProviders: ['postmark', 'ses', 'sendgrid', 'mailgun'] });
    assert.match(document.openapi, /^3\.1\.\d+$/);
    assert.deepEqual(documentProblems(document), []);
  });

  it('the forms listener\'s with the fewest features', () => {
    assert.deepEqual(documentProblems(formsDocument(formsOf([{ path: '/', type: 'generic' }]))), []);
  });

  it('the blog listener\'s', () => {
    const document = JSON.parse(JSON.stringify(createBlogDocument())) as OpenApiDocument;
    assert.match(document.openapi, /^3\.1\.\d+$/);
    assert.deepEqual(documentProblems(document), []);
  });

  it('the blog listener\'s with [blog.comments]', () => {
    const document = JSON.parse(JSON.stringify(createBlogDocument([registerCommentPaths]))) as OpenApiDocument;
    assert.deepEqual(documentProblems(document), []);
  });

  it('the check finds what is wrong: a dangling reference, another version, a schema that does not compile, an undeclared path parameter', () => {
    const document = formsDocument(formsOf([{ path: '/contact', type: 'contact' }]));
    const broken = structuredClone(document);
    broken.openapi = '3.0.3';
    (broken.paths['/contact']!.post!.responses as Record<string, Json>)['418'] = { $ref: '#/components/responses/Missing' };
    broken.components!.schemas!.Submission_Contact = { type: 'object', minProperties: 'many' };
    broken.paths['/things/{id}'] = { get: { responses: { 200: { description: 'ok' } } } };
    const problems = documentProblems(broken);
    for (const expected of [/not 3\.1/, /Missing resolves to nothing/, /Submission_Contact/, /\{id\} is not a declared path parameter/]) {
      assert.ok(problems.some((problem) => expected.test(problem)), `${expected} in ${problems.join('\n')}`);
    }
  });

  it('leaves /admin out', () => {
    for (const document of [formsDocument(EVERY_FEATURE), createBlogDocument() as unknown as OpenApiDocument]) {
      assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith('/admin')), []);
    }
  });
});

describe('a form\'s request body is the one its validation checks', () => {
  const bodies: Array<Record<string, unknown>> = [
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.' },
    { email: 'ada@example.org', message: 'Hello, I would like a website.' },
    { name: 'Ada Lovelace', message: 'Hello, I would like a website.' },
    { name: 'Ada Lovelace', email: 'not an address', message: 'Hello, I would like a website.' },
    { name: 'A', email: 'ada@example.org', message: 'Hello, I would like a website.' },
    { name: 'Ada'.repeat(20), email: 'ada@example.org', message: 'Hello, I would like a website.' },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hi' },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'x'.repeat(301) },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.', service: 'Web' },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.', service: 'Gardening' },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.', service: 'x'.repeat(101) },
    { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, I would like a website.', newsletter: 'yes' },
    { email: 'ada@example.org' },
    { name: 7, email: 'ada@example.org', message: 'Hello, I would like a website.' },
  ];
  const variants: TomlTable[] = [
    { path: '/contact', type: 'contact' },
    { path: '/contact', type: 'contact', services: ['Web', 'Print'] },
    { path: '/feedback', type: 'feedback', require_name: false, name_max: 40, message_max: 300 },
    { path: '/generic', type: 'generic', require_message: false, name_min: 4 },
    { path: '/news', type: 'newsletter' },
  ];
  for (const variant of variants) {
    it(`agrees with checkSubmission for ${JSON.stringify(variant)}`, () => {
      const [form] = formsOf([variant]);
      const checker = createAnswerChecker(formsDocument([form!]));
      for (const body of bodies) {
        const valid = checkSubmission(form!, body).ok;
        for (const mediaType of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
          const problems = checker.requestProblems('POST', form!.path, mediaType, body);
          assert.equal(problems.length === 0, valid, `${mediaType} ${JSON.stringify(body)}: document ${problems.join('; ') || 'accepts'}, validation ${valid ? 'accepts' : 'refuses'}`);
        }
      }
    });
  }

  it('names the honeypot, and asks for the proof of work\'s and the captcha\'s fields only where they are on', () => {
    const document = formsDocument(EVERY_FEATURE);
    const schema = (name: string) => document.components!.schemas![`Submission_${name}`] as { properties: Record<string, { maxLength?: number }>; required: string[] };
    assert.equal(schema('Contact').properties.website?.maxLength, 0);
    assert.equal(schema('Generic').properties.fax?.maxLength, 0);
    assert.equal(schema('Generic').properties.website, undefined);
    assert.ok(schema('Pow').required.includes('altcha'));
    assert.equal(schema('Contact').properties.altcha, undefined);
    assert.ok(schema('Generic').required.includes('cf-turnstile-response'));
    assert.deepEqual(Object.keys(schema('News').properties), ['email', 'website']);
  });

  it('lists the fields a 400 validation can name, per form', () => {
    const document = formsDocument(EVERY_FEATURE);
    const fields = (name: string) => ((document.components!.schemas![`ValidationError_${name}`] as any).properties.details.items.properties.field.enum as string[]);
    assert.deepEqual(fields('Contact'), ['name', 'email', 'service', 'message']);
    assert.deepEqual(fields('Feedback'), ['name', 'email', 'message']);
    assert.deepEqual(fields('News'), ['email']);
  });
});

describe('each route\'s answers follow the configuration', () => {
  const document = formsDocument(EVERY_FEATURE, { metricsToken: 'secret-token' });

  it('a form with a redirect answers 303 with Location, the others 200 {"ok":true}', () => {
    assert.deepEqual(Object.keys(responsesOf(document, '/feedback', 'post')).filter((status) => status < '400'), ['303']);
    assert.ok(JSON.stringify(deref(document, responsesOf(document, '/feedback', 'post')['303'])).includes('"Location"'));
    assert.deepEqual(Object.keys(responsesOf(document, '/contact', 'post')).filter((status) => status < '400'), ['200']);
  });

  it('429 with Retry-After only where a rate limit is on, 400 spam only where spam is rejected', () => {
    assert.ok(responsesOf(document, '/contact', 'post')['429']);
    assert.equal(responsesOf(document, '/feedback', 'post')['429'], undefined);
    const retryAfter = (deref(document, responsesOf(document, '/contact', 'post')['429']) as any).headers['Retry-After'];
    assert.equal((deref(document, retryAfter) as any).required, true);
    assert.deepEqual(codesOf(document, responsesOf(document, '/pow', 'post')['400']), ['invalid_body', 'spam', 'validation']);
    assert.deepEqual(codesOf(document, responsesOf(document, '/contact', 'post')['400']), ['invalid_body', 'validation']);
  });

  it('each route names the catalogue\'s codes it can answer, internal_error everywhere', () => {
    assert.deepEqual(codesOf(document, responsesOf(document, '/contact', 'post')['500']), ['internal_error', 'send_failed', 'storage_failed']);
    assert.deepEqual(codesOf(document, responsesOf(document, '/contact', 'options')['403']), ['origin_not_allowed']);
    assert.deepEqual(codesOf(document, responsesOf(document, '/health', 'get')['500']), ['internal_error']);
    assert.deepEqual(codesOf(document, responsesOf(document, '/metrics', 'get')['401']), ['unauthorized']);
  });

  it('/metrics is behind the bearer token only when there is one, and lists the configured forms', () => {
    assert.deepEqual(operation(document, '/metrics', 'get')?.security, [{ metricsToken: [] }]);
    const open = formsDocument(EVERY_FEATURE);
    assert.deepEqual(operation(open, '/metrics', 'get')?.security, []);
    assert.equal(responsesOf(open, '/metrics', 'get')['401'], undefined);
    const json = (deref(document, responsesOf(document, '/metrics', 'get')['200']) as any).content['application/json'].schema;
    assert.deepEqual(json.properties.forms.required, EVERY_FEATURE.map((form) => form.path));
    assert.equal(json.properties.queue, undefined);
    const queued = (deref(document, responsesOf(formsDocument(EVERY_FEATURE, { queueCounts: () => ({}) }), '/metrics', 'get')['200']) as any).content['application/json'].schema;
    assert.deepEqual(queued.required, ['totals', 'forms', 'queue']);
  });

  it('proof of work, newsletter pages and bounce webhooks appear where they are configured', () => {
    assert.ok(operation(document, '/pow/challenge', 'get'));
    assert.equal(document.paths['/contact/challenge'], undefined);
    assert.deepEqual(Object.keys(document.paths['/news/confirm']!).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(document.paths['/letter/confirm']!), ['get']);
    assert.deepEqual(Object.keys(responsesOf(document, '/letter/confirm', 'get')).sort(), ['200', '410', '500', '503']);
    assert.equal(document.paths['/bounces/postmark'], undefined);
    const withBounces = formsDocument(EVERY_FEATURE, { bounceProviders: ['postmark'] });
    assert.deepEqual(Object.keys(withBounces.paths).filter((path) => path.startsWith('/bounces/')), ['/bounces/postmark']);
  });
});

describe('the /posts parameters are the query parser\'s', () => {
  const document = JSON.parse(JSON.stringify(createBlogDocument())) as OpenApiDocument;
  const parameters = (operation(document, '/api/blog/posts', 'get')!.parameters as Array<{ name: string; in: string; schema: Record<string, unknown> }>).filter((parameter) => parameter.in === 'query');

  it('names every parameter the parser reads, with its bounds and default', () => {
    assert.deepEqual(parameters.map((parameter) => parameter.name), ['lang', 'tag', 'q', 'page', 'limit']);
    const limit = parameters.find((parameter) => parameter.name === 'limit')!.schema;
    assert.deepEqual([limit.type, limit.default], ['string', '20']);
    assert.match(String(limit.description), new RegExp(`from 1 to ${MAX_PAGE_SIZE}`));
  });

  it('refuses the page and limit values the parser refuses', () => {
    // A query value is text: the document must say which texts the parser takes, `+1` and `1e2` included.
    const validates = (name: string, value: string) => validateAgainst(parameters.find((parameter) => parameter.name === name)!.schema, { [name]: value }, name);
    const values = ['1', '0', '-1', '1.5', 'abc', '', '+1', '1e2', ' 1', '01', '000000000000001', '0000000000000001', '999999999999999', '1000000000000000', '2', '9', '10', '50', '99', '100', '101', '0100', '200', '1000'];
    for (const name of ['page', 'limit']) {
      for (const value of values) {
        const parsed = parsePostsQuery(parseQuery(`${name}=${encodeURIComponent(value)}`) as Record<string, unknown>).ok;
        assert.equal(validates(name, value), parsed, `${name}=${value}`);
      }
    }
  });
});

/** Whether `value[name]` passes `schema`, through the same Ajv set-up as the checker. */
function validateAgainst(schema: Record<string, unknown>, value: Record<string, unknown>, name: string): boolean {
  const document: OpenApiDocument = {
    openapi: '3.1.1',
    info: { title: 't', version: '1' },
    paths: { '/p': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { [name]: schema as Json } } } } }, responses: { 200: { description: 'ok' } } } } },
  };
  return createAnswerChecker(document).requestProblems('POST', '/p', 'application/json', value).length === 0;
}

describe('what a linter asks of every operation', () => {
  const documents: Array<[string, OpenApiDocument]> = [
    ['forms', formsDocument(EVERY_FEATURE, { metricsToken: 'secret-token', queueCounts: () => ({}), bounceProviders: ['postmark', 'ses', 'sendgrid', 'mailgun'] })],
    ['forms, open /metrics', formsDocument(EVERY_FEATURE)],
    ['blog', JSON.parse(JSON.stringify(createBlogDocument())) as OpenApiDocument],
  ];

  it('names a server, the listener itself, relative to where the document was fetched', () => {
    for (const [name, document] of documents) assert.deepEqual((document as unknown as { servers: Array<{ url: string }> }).servers.map((server) => server.url), ['/'], name);
  });

  it('states the security of every operation: none for the public ones, the bearer scheme for a guarded /metrics', () => {
    for (const [name, document] of documents) {
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, value] of Object.entries(item as Record<string, Record<string, Json>>)) {
          const expected = name === 'forms' && path === '/metrics' ? [{ metricsToken: [] }] : [];
          assert.deepEqual(value.security, expected, `${name}: ${method} ${path}`);
        }
      }
    }
  });
});
