// GET /openapi.json of the forms listener (docs/openapi.md): an OpenAPI 3.1 document of this configuration's routes,
// built once when the service starts. Each form's request body comes from the rules the validation uses, its error
// codes from what its submit flow can refuse for its settings, its pages and answers from the code that makes them.
// /admin is not an API and is left out.
import type { WebhookProvider } from '../../bounces/intake/webhook-intake.js';
import { challengePathOf, confirmPathOf, PREFERENCES_PATH, unsubscribePathOf, type FormConfig, type NewsletterForm } from '../../config/config.js';
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { createApiDocument, type ApiDocument, type ResponseHeaders } from '../../http/openapi/api-document.js';
import { z } from '../../http/openapi/openapi-zod.js';
import { PROMETHEUS_CONTENT_TYPE } from '../prometheus.js';
import { ACCEPTED_CONTENT_TYPES } from '../request-body.js';
import type { RefusalCode } from '../submit-flow.js';
import { BOUNCES_PATH_PREFIX } from '../../bounces/http/bounce-routes.js';
import type { MetricsFormat } from './metrics-format.js';
import * as pages from '../../newsletter/http/newsletter-pages.js';
import * as preferencePages from '../../newsletter/http/preferences-page.js';
import { challengeBody, healthBodies, metricsBody, okBody } from './openapi-answers.js';
import { submissionSchema, validationSchema } from './openapi-submission.js';

/** What the document is written from: the forms service's own route options (form-routes.ts). */
export interface FormsDocumentSource {
  forms: readonly FormConfig[];
  /** The form's proof of work, undefined when it is off (then its challenge path is not routed). */
  proofOfWorkOf(form: FormConfig): unknown;
  metricsToken: string | undefined;
  /** Present when the mail queue is on: /metrics then has `queue`. */
  queueCounts?: unknown;
  /** The providers of `[mail.bounces.webhooks]`, each routed at /bounces/<provider>. */
  bounceProviders?: readonly WebhookProvider[];
}

/**
 * Whether a form's submit flow can refuse with each code, from its settings (docs/forms-api.md "POST <path>"). Every
 * code of the flow must be listed here, so a new one cannot be left out of the document.
 */
const REFUSALS = {
  origin_not_allowed: () => true,
  rate_limited: (form) => form.rate_limit_per_hour > 0,
  body_too_large: () => true,
  invalid_body: () => true,
  spam: (form) => form.spam.action === 'reject',
  // The archive, the newsletter's records or the quarantine.
  storage_failed: () => true,
  send_failed: () => true,
  unavailable: () => true,
} satisfies Record<RefusalCode, (form: FormConfig) => boolean>;

/** The formats of GET /metrics (metrics-format.ts), each with what it is. */
const METRICS_FORMATS = {
  json: 'the counters as JSON (the default)',
  prometheus: 'the Prometheus text format, version 0.0.4',
} satisfies Record<MetricsFormat, string>;

/** The page a newsletter route can show, with what it says: made here once to read its status. */
const SITE: pages.PageSite = { name: 'the site', url: undefined };
const NEWSLETTER_PAGES = {
  confirmed: { page: () => pages.confirmedPage(SITE), says: 'the address is confirmed' },
  gone: { page: () => pages.goneConfirmPage(SITE, 1), says: 'the link is used, expired or without its token' },
  confirmNotSaved: { page: () => pages.confirmNotSavedPage(SITE), says: 'the confirmation could not be saved (the link still works)' },
  confirmButton: { page: () => pages.confirmButtonPage(SITE, 'token'), says: 'a page whose button confirms (a POST to the same link)' },
  unsubscribeButton: { page: () => pages.unsubscribeButtonPage(SITE, 'token'), says: 'a page whose button unsubscribes (a POST to the same link)' },
  unsubscribed: { page: () => pages.unsubscribedPage(SITE), says: 'the address is unsubscribed' },
  badUnsubscribeLink: { page: () => pages.badUnsubscribeLinkPage(SITE), says: 'the link is not a valid unsubscribe link' },
  unsubscribeNotSaved: { page: () => pages.unsubscribeNotSavedPage(SITE), says: 'the request could not be saved (nothing changed)' },
  preferences: { page: () => preferencePages.preferencesPage(SITE, 'token', { email: 'a@example.org', lists: [] }), says: 'the lists of the address, to join and leave' },
  badPreferencesLink: { page: () => preferencePages.badPreferencesLinkPage(SITE), says: 'the link is not a valid preference link' },
  preferencesNotSaved: { page: () => preferencePages.preferencesNotSavedPage(SITE), says: 'a change could not be saved' },
};
type NewsletterPageName = keyof typeof NEWSLETTER_PAGES;

/** The providers' webhooks (docs/bounces.md "The providers' webhooks"): what each sends, and how it is authenticated. */
const BOUNCE_PROVIDERS = {
  postmark: { name: 'Postmark', mediaTypes: ['application/json'], auth: 'HTTP basic authentication with the configured username and password' },
  ses: { name: 'Amazon SES', mediaTypes: ['text/plain', 'application/json'], auth: 'an SNS message signed by Amazon, from a topic of `topic_arns`' },
  sendgrid: { name: 'SendGrid', mediaTypes: ['application/json'], auth: 'the Event Webhook\'s signature headers' },
  mailgun: { name: 'Mailgun', mediaTypes: ['application/json'], auth: 'the HMAC signature in the body, fresh and used once' },
} satisfies Record<WebhookProvider, { name: string; mediaTypes: string[]; auth: string }>;

const CORS: ResponseHeaders = { 'Access-Control-Allow-Origin': 'optional', Vary: 'optional' };
const originHeader = z.object({
  Origin: z.string().optional().openapi({ description: 'The page\'s origin; a browser sends it. Without it (not a browser) nothing is refused for it.' }),
});
const tokenQuery = z.object({ token: z.string().min(1).openapi({ description: 'The token of the link in the mail.' }) });

/** The document of the forms listener; the ALTCHA widget is served at `widgetPath` and at `versionedWidgetPath`. */
export function createFormsDocument(source: FormsDocumentSource, widgetPath: string, versionedWidgetPath?: string): Record<string, unknown> {
  const api = createApiDocument();
  registerStatusPaths(api, source);
  registerWidget(api, widgetPath, 'AltchaWidget', 'kept an hour');
  if (versionedWidgetPath !== undefined) registerWidget(api, versionedWidgetPath, 'VersionedAltchaWidget', 'at an address that carries a hash of its content, kept a year (immutable)');
  const ids = operationNames(source.forms);
  for (const form of source.forms) {
    const name = ids.get(form)!;
    const proofOfWork = source.proofOfWorkOf(form) !== undefined;
    registerForm(api, form, name, proofOfWork);
    if (proofOfWork) registerChallenge(api, form, name);
    if (form.type === 'newsletter') registerNewsletter(api, form, name);
  }
  if (source.forms.some((form) => form.type === 'newsletter')) registerPreferences(api);
  for (const provider of source.bounceProviders ?? []) registerBounces(api, provider);
  return api.generate({
    title: 'Postbox forms',
    description:
      'The forms service of this configuration (docs/forms-api.md): each form, /health and /metrics. Any other method on a path is answered `405` with `Allow`, an unknown path `404 not_found`.',
  });
}

function registerForm(api: ApiDocument, form: FormConfig, name: string, proofOfWork: boolean): void {
  const body = api.registry.register(`Submission_${name}`, submissionSchema(form, proofOfWork));
  const validation = api.registry.register(`ValidationError_${name}`, validationSchema(form));
  const refusals = (Object.keys(REFUSALS) as RefusalCode[]).filter((code) => REFUSALS[code](form));
  const accepted: Record<number, ResponseConfig> =
    form.redirect_url === undefined
      ? { 200: { description: api.describe(200, 'accepted (also a honeypot hit or a submission quarantined as spam).'), headers: api.headers(CORS), content: { 'application/json': { schema: okBody } } } }
      : { 303: { description: api.describe(303, `accepted: the browser is sent to \`redirect_url\` (${form.redirect_url}).`), headers: api.headers({ Location: 'required', ...CORS }) } };
  api.registry.registerPath({
    method: 'post',
    path: form.path,
    operationId: `submit${name}`,
    tags: [form.type === 'newsletter' ? 'newsletter' : 'forms'],
    summary: form.type === 'newsletter' ? `Sign up to the newsletter of ${form.path}` : `Submit the ${form.type} form ${form.path}`,
    description:
      'The checks run in the order of docs/forms-api.md "POST <path>", and the first that fails gives the answer. A page of an allowed origin gets the CORS headers on every answer but `403`.',
    request: {
      headers: originHeader,
      body: { required: true, content: Object.fromEntries(ACCEPTED_CONTENT_TYPES.map((type) => [type, { schema: body }])) },
    },
    responses: {
      ...accepted,
      ...api.errors([...refusals, 'request_timeout'], {
        bodies: { 400: { code: 'validation', schema: validation } },
        headers: { 400: CORS, 413: CORS, 429: { ...CORS, 'Retry-After': 'required' }, 500: CORS, 503: CORS },
        notes: { 403: 'the `Origin` is not in `allowed_origins`', 429: `more than ${form.rate_limit_per_hour} submissions an hour from one address; try again after \`Retry-After\` seconds` },
      }),
    },
  });
  api.registry.registerPath({
    method: 'options',
    path: form.path,
    operationId: `preflight${name}`,
    tags: ['forms'],
    summary: 'CORS preflight',
    request: { headers: originHeader },
    responses: {
      204: {
        description: api.describe(204, 'from an allowed origin, the CORS headers; without an `Origin`, `Allow` only.'),
        headers: api.headers({ Allow: 'optional', 'Access-Control-Allow-Origin': 'optional', 'Access-Control-Allow-Methods': 'optional', 'Access-Control-Allow-Headers': 'optional', Vary: 'optional' }),
      },
      ...api.errors(['origin_not_allowed']),
    },
  });
}

function registerChallenge(api: ApiDocument, form: FormConfig, name: string): void {
  api.registry.registerPath({
    method: 'get',
    path: challengePathOf(form.path),
    operationId: `challenge${name}`,
    tags: ['proof of work'],
    summary: `A proof-of-work challenge for ${form.path} (docs/spam.md "Proof of work")`,
    request: { headers: originHeader },
    responses: {
      200: {
        description: api.describe(200, 'a new challenge, never cached.'),
        headers: api.headers({ 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'optional', Vary: 'optional' }),
        content: { 'application/json': { schema: challengeBody } },
      },
      ...api.errors(['origin_not_allowed']),
    },
  });
}

function registerWidget(api: ApiDocument, widgetPath: string, operation: string, cached: string): void {
  const script = {
    description: api.describe(200, `the ALTCHA widget, ${cached}, compressed when the request takes brotli or gzip (an ETag per encoding).`),
    headers: api.headers({ ETag: 'required', 'Cache-Control': 'required', 'Access-Control-Allow-Origin': 'required', Vary: 'required' }),
    content: { 'text/javascript': { schema: z.string() } },
  };
  for (const method of ['get', 'head'] as const) {
  api.registry.registerPath({
    method,
    path: widgetPath,
    operationId: `${method}${operation}`,
    tags: ['proof of work'],
    summary: 'The proof-of-work widget, for any page',
    request: { headers: z.object({ 'If-None-Match': z.string().optional() }) },
    responses: {
      200: script,
      304: { description: api.describe(304, 'the widget the client holds is current.'), headers: api.headers({ ETag: 'required', 'Cache-Control': 'required' }) },
      ...api.errors([]),
    },
  });
  }
}

function registerNewsletter(api: ApiDocument, form: NewsletterForm, name: string): void {
  const pagesOf = (names: NewsletterPageName[]) => newsletterPageResponses(api, names);
  const link = form.confirm === 'link';
  const confirm = confirmPathOf(form.path);
  const unsubscribe = unsubscribePathOf(form.path);
  const oneClick = {
    required: false,
    content: {
      'application/x-www-form-urlencoded': {
        schema: z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() }).openapi({ description: 'What a mail program sends for a one-click unsubscribe (RFC 8058); the token in the query is what counts.' }),
      },
    },
  };
  // With `confirm = "button"` a GET only shows the button, and its POST confirms (docs/newsletter.md).
  const redeems: NewsletterPageName[] = ['confirmed', 'gone', 'confirmNotSaved'];
  const operations: Array<{ method: 'get' | 'post'; path: string; id: string; summary: string; pages: NewsletterPageName[]; body?: typeof oneClick }> = [
    link
      ? { method: 'get', path: confirm, id: `confirm${name}`, summary: 'Confirm a signup', pages: redeems }
      : { method: 'get', path: confirm, id: `showConfirm${name}`, summary: 'Show the button that confirms a signup', pages: ['confirmButton', 'gone'] },
    { method: 'get', path: unsubscribe, id: `showUnsubscribe${name}`, summary: 'Show the button that unsubscribes', pages: ['unsubscribeButton', 'badUnsubscribeLink'] },
    { method: 'post', path: unsubscribe, id: `unsubscribe${name}`, summary: 'Unsubscribe (the button, or a mail program\'s one click)', pages: ['unsubscribed', 'badUnsubscribeLink', 'unsubscribeNotSaved'], body: oneClick },
  ];
  if (!link) operations.push({ method: 'post', path: confirm, id: `confirm${name}`, summary: 'Confirm a signup', pages: redeems });
  for (const operation of operations) {
    api.registry.registerPath({
      method: operation.method,
      path: operation.path,
      operationId: operation.id,
      tags: ['newsletter'],
      summary: `${operation.summary} (docs/newsletter.md)`,
      request: { query: tokenQuery, ...(operation.body ? { body: operation.body } : {}) },
      responses: {
        ...pagesOf(operation.pages),
        ...api.errors(['unavailable'], { headers: { 503: { 'Cache-Control': 'required' } }, notes: { 503: 'the shared store cannot be reached; the link works again once it is back' } }),
      },
    });
  }
}

/** The preference page (docs/newsletter.md "Preferences"), one for every list. */
function registerPreferences(api: ApiDocument): void {
  const choice = {
    required: false,
    content: {
      'application/x-www-form-urlencoded': {
        schema: z
          .object({ action: z.enum(['save', 'leave_all']).optional(), lists: z.string().optional() })
          .openapi({ description: '`save` (the default) keeps the lists ticked in `lists` (repeated or comma-separated) and leaves the others; `leave_all` leaves every list.' }),
      },
    },
  };
  const operations = [
    { method: 'get' as const, id: 'showPreferences', summary: 'Show the lists of the address', pages: ['preferences', 'badPreferencesLink'] as NewsletterPageName[] },
    { method: 'post' as const, id: 'savePreferences', summary: 'Join and leave lists, or leave them all', pages: ['preferences', 'badPreferencesLink', 'preferencesNotSaved'] as NewsletterPageName[], body: choice },
  ];
  for (const operation of operations) {
    api.registry.registerPath({
      method: operation.method,
      path: PREFERENCES_PATH,
      operationId: operation.id,
      tags: ['newsletter'],
      summary: `${operation.summary} (docs/newsletter.md)`,
      request: { query: tokenQuery, ...(operation.body ? { body: operation.body } : {}) },
      responses: {
        ...newsletterPageResponses(api, operation.pages),
        ...(operation.body ? api.errors(['body_too_large']) : {}),
        ...api.errors(['unavailable'], { headers: { 503: { 'Cache-Control': 'required' } }, notes: { 503: 'the shared store cannot be reached; the link works again once it is back' } }),
      },
    });
  }
}

/** HTML pages of the newsletter, one response per status they come with. */
function newsletterPageResponses(api: ApiDocument, names: NewsletterPageName[]) {
  const byStatus = new Map<number, string[]>();
  for (const name of names) {
    const { page, says } = NEWSLETTER_PAGES[name];
    const { status } = page();
    byStatus.set(status, [...(byStatus.get(status) ?? []), says]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, says]) => [
      status,
      { description: api.describe(status, `an HTML page: ${says.join('; or ')}.`), headers: api.headers({ 'Cache-Control': 'required' }), content: { 'text/html': { schema: z.string() } } },
    ]),
  );
}

function registerStatusPaths(api: ApiDocument, source: FormsDocumentSource): void {
  const health = healthBodies(source.forms.length);
  const metrics = metricsBody(source.forms, source.queueCounts !== undefined);
  const formats = Object.entries(METRICS_FORMATS).map(([format, what]) => `\`${format}\`: ${what}`).join('; ');
  if (source.metricsToken !== undefined) api.registry.registerComponent('securitySchemes', 'metricsToken', { type: 'http', scheme: 'bearer', description: '`[server] metrics_token`' });
  for (const method of ['get', 'head'] as const) {
    const withBody = <T>(content: T) => (method === 'get' ? { content } : {});
    api.registry.registerPath({
      method,
      path: '/health',
      operationId: `${method}Health`,
      tags: ['service'],
      summary: 'Whether the service can answer (docs/forms-api.md "Endpoints")',
      responses: {
        200: { description: api.describe(200, 'the service works.'), headers: api.headers({ 'Cache-Control': 'required' }), ...withBody({ 'application/json': { schema: health.ok } }) },
        503: { description: api.describe(503, 'a part the service needs cannot be reached.'), headers: api.headers({ 'Cache-Control': 'required' }), ...withBody({ 'application/json': { schema: health.unavailable } }) },
        ...api.errors([]),
      },
    });
    api.registry.registerPath({
      method,
      path: '/metrics',
      operationId: `${method}Metrics`,
      tags: ['service'],
      summary: 'The counters (docs/forms-api.md "/metrics")',
      description: 'JSON unless `format`, or an `Accept` header that takes `text/plain` or `application/openmetrics-text` (as a Prometheus server sends), asks for the Prometheus text format.',
      ...(source.metricsToken !== undefined ? { security: [{ metricsToken: [] }] } : {}),
      request: {
        query: z.object({ format: z.enum(Object.keys(METRICS_FORMATS) as [MetricsFormat, ...MetricsFormat[]]).optional().openapi({ description: formats }) }),
      },
      responses: {
        200: {
          description: api.describe(200, 'the counters.'),
          headers: api.headers({ 'Cache-Control': 'required' }),
          ...withBody({ 'application/json': { schema: metrics }, [PROMETHEUS_CONTENT_TYPE.split(';')[0]!]: { schema: z.string() } }),
        },
        ...api.errors(source.metricsToken !== undefined ? ['unauthorized'] : [], { headers: { 401: { 'WWW-Authenticate': 'required' } }, notes: { 401: 'the bearer token is missing or wrong' } }),
      },
    });
  }
}

function registerBounces(api: ApiDocument, provider: WebhookProvider): void {
  const { name, mediaTypes, auth } = BOUNCE_PROVIDERS[provider];
  const payload = { description: `What ${name} posts, in its own format (docs/bounces.md "The providers' webhooks").` };
  api.registry.registerPath({
    method: 'post',
    path: `${BOUNCES_PATH_PREFIX}${provider}`,
    operationId: `bounces${provider[0]!.toUpperCase()}${provider.slice(1)}`,
    tags: ['bounces'],
    summary: `The bounce webhook of ${name} (docs/forms-api.md "Bounce webhooks")`,
    description: `Authenticated by ${auth}. No CORS, no rate limit.`,
    request: { body: { required: true, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: payload }])) } },
    responses: {
      200: { description: api.describe(200, 'every report in it was recorded.'), content: { 'application/json': { schema: okBody } } },
      ...api.errors(['invalid_body', 'unauthorized', 'body_too_large', 'request_timeout', 'unavailable'], {
        headers: { 401: provider === 'postmark' ? { 'WWW-Authenticate': 'required' } : {}, 503: { 'Cache-Control': 'required' } },
      }),
    },
  });
}

/**
 * A name per form for its schemas and operations, from its path: `/contact` is `Contact`, `/forms/news-en`
 * `FormsNewsEn`; two paths that come to one name are told apart by a number.
 */
function operationNames(forms: readonly FormConfig[]): Map<FormConfig, string> {
  const names = new Map<FormConfig, string>();
  const taken = new Set<string>();
  for (const form of forms) {
    const base =
      form.path
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((word) => word[0]!.toUpperCase() + word.slice(1))
        .join('') || 'Root';
    let name = base;
    for (let count = 2; taken.has(name); count += 1) name = `${base}${count}`;
    taken.add(name);
    names.set(form, name);
  }
  return names;
}
