// A newsletter form's own pages (docs/newsletter.md): `<path>/confirm` and `<path>/unsubscribe`, mounted by the
// forms service beside the form's POST. No HEAD and no GET that changes anything: link checkers and mail scanners
// fetch links. Only the token in the query counts; the one-click POST (RFC 8058: body `List-Unsubscribe=One-Click`,
// from any origin) needs no CSRF token because the HMAC token is the capability.
import { parse as parseQuery } from 'node:querystring';
import { confirmPathOf, unsubscribePathOf, type FormConfig, type NewsletterForm } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { Newsletter } from '../index.js';
import * as pages from './newsletter-pages.js';

/** Pages reached by a link with a token: no search engine lists them (docs/newsletter.md "Confirming with a button"). */
const NO_INDEX = { 'x-robots-tag': 'noindex' } as const;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  ...NO_INDEX,
  // The pages run no script and load nothing; their one form posts back to the same origin.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

/** The confirmation and unsubscribe routes of every newsletter form of `forms`; `siteOf` names the site on a form's pages. */
export function createNewsletterRoutes(forms: readonly FormConfig[], newsletter: Newsletter, siteOf: (form: FormConfig) => pages.PageSite): Route[] {
  return forms.flatMap((form) => (form.type === 'newsletter' ? createFormNewsletterRoutes(form, newsletter, siteOf(form)) : []));
}

/** The two routes of one newsletter form. */
function createFormNewsletterRoutes(form: NewsletterForm, newsletter: Newsletter, site: pages.PageSite): Route[] {
  const redeem: Handler = async (request) => {
    const outcome = await newsletter.confirm(form, tokenOf(request));
    if (outcome === 'confirmed') return answer(pages.confirmedPage(site));
    if (outcome === 'gone') return answer(pages.goneConfirmPage(site, form.confirm_ttl_hours));
    return answer(pages.confirmNotSavedPage(site));
  };
  const showConfirmButton: Handler = async (request) => {
    const token = tokenOf(request);
    if (!token || (await newsletter.confirmState(form, token)) === 'gone') return answer(pages.goneConfirmPage(site, form.confirm_ttl_hours));
    return answer(pages.confirmButtonPage(site, token));
  };
  const showUnsubscribeButton: Handler = async (request) => {
    const token = tokenOf(request);
    if (!token || !(await newsletter.isUnsubscribeToken(form, token))) return answer(pages.badUnsubscribeLinkPage(site));
    return answer(pages.unsubscribeButtonPage(site, token));
  };
  const unsubscribe: Handler = async (request) => {
    const outcome = await newsletter.unsubscribe(form, tokenOf(request));
    if (outcome === 'unsubscribed') return answer(pages.unsubscribedPage(site));
    if (outcome === 'bad_token') return answer(pages.badUnsubscribeLinkPage(site));
    return answer(pages.unsubscribeNotSavedPage(site));
  };
  const confirmMethods: Record<string, Handler> = form.confirm === 'button' ? { GET: orUnavailable(showConfirmButton), POST: orUnavailable(redeem) } : { GET: orUnavailable(redeem) };
  return [
    { path: confirmPathOf(form.path), methods: confirmMethods },
    { path: unsubscribePathOf(form.path), methods: { GET: orUnavailable(showUnsubscribeButton), POST: orUnavailable(unsubscribe) } },
  ];
}

/** A shared store (PostgreSQL) out of reach: `503 {"error":"unavailable"}`, nothing changed; the link works again once it is back. */
function orUnavailable(handler: Handler): Handler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof UnavailableError) return errorAnswer('unavailable', { 'cache-control': 'no-store', ...NO_INDEX });
      throw error;
    }
  };
}

function tokenOf(request: RoutedRequest): string | undefined {
  const token = parseQuery(request.query).token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

function answer(page: pages.NewsletterPage): Answer {
  return { status: page.status, headers: { ...PAGE_HEADERS }, body: page.html };
}
