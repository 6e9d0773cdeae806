// A newsletter form's own pages (docs/newsletter.md): `<path>/confirm` and `<path>/unsubscribe`, mounted by the
// forms service beside the form's POST. No HEAD and no GET that changes anything: link checkers and mail scanners
// fetch links. Only the token in the query counts; the one-click POST (RFC 8058: body `List-Unsubscribe=One-Click`,
// from any origin) needs no CSRF token because the HMAC token is the capability.
import { parse as parseQuery } from 'node:querystring';
import { confirmPathOf, PREFERENCES_PATH, unsubscribePathOf, type FormConfig, type NewsletterForm } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { readWholeBody } from '../../http/body-reader.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import { parseTickedLists } from '../lists.js';
import type { PreferencesOutcome } from '../preferences.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { Newsletter } from '../index.js';
import * as pages from './newsletter-pages.js';
import { badPreferencesLinkPage, preferencesNotSavedPage, preferencesPage } from './preferences-page.js';

/** A preference form's body is two short fields and the ids ticked. */
const PREFERENCES_MAX_BODY_BYTES = 16 * 1024;

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

/**
 * The confirmation and unsubscribe routes of every newsletter form of `forms`, and the preference page when there is
 * one; `siteOf` names the site on a form's pages (the first newsletter form's on the preference page).
 */
export function createNewsletterRoutes(forms: readonly FormConfig[], newsletter: Newsletter, siteOf: (form: FormConfig) => pages.PageSite): Route[] {
  const newsletterForms = forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  if (newsletterForms.length === 0) return [];
  return [...newsletterForms.flatMap((form) => createFormNewsletterRoutes(form, newsletter, siteOf(form))), createPreferencesRoute(newsletter, siteOf(newsletterForms[0]!))];
}

/**
 * `<public_url>/newsletter/preferences?token=` (docs/newsletter.md "Preferences"): GET shows the lists and changes
 * nothing (link scanners); POST with the token in the query saves the boxes ticked (`action=save`, the ids in
 * `lists`) or leaves every list (`action=leave_all`). The HMAC token is the capability, so no CSRF token is needed:
 * a page elsewhere cannot know it; the page's policy lets its forms post to this origin only.
 */
function createPreferencesRoute(newsletter: Newsletter, site: pages.PageSite): Route {
  const show: Handler = async (request) => {
    const token = tokenOf(request);
    const view = token ? await newsletter.preferences.view(token) : undefined;
    return answer(token && view ? preferencesPage(site, token, view) : badPreferencesLinkPage(site));
  };
  const change: Handler = async (request) => {
    const token = tokenOf(request);
    const body = await readWholeBody(request.raw, request.raw.headers['content-length'], PREFERENCES_MAX_BODY_BYTES);
    if (!body.ok) return errorAnswer(body.error, { 'cache-control': 'no-store', ...NO_INDEX });
    const fields = parseQuery(body.body.toString('utf8'));
    const leaveAll = fields.action === 'leave_all';
    // A mail of a list without a form links here with `list=<id>`: its one-click POST (RFC 8058) leaves that list alone.
    const oneList = fields['List-Unsubscribe'] === 'One-Click' ? listOf(request) : undefined;
    const outcome: PreferencesOutcome = oneList
      ? await newsletter.preferences.leave(token, oneList)
      : leaveAll
        ? await newsletter.preferences.leaveAll(token)
        : await newsletter.preferences.save(token, parseTickedLists(fields.lists));
    if (outcome.kind === 'bad_token' || !token) return answer(badPreferencesLinkPage(site));
    if (outcome.kind === 'not_saved') return answer(preferencesNotSavedPage(site));
    return answer(preferencesPage(site, token, outcome.view, leaveAll ? 'left_all' : 'saved'));
  };
  return { path: PREFERENCES_PATH, methods: { GET: orUnavailable(show), POST: orUnavailable(change) } };
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

/** The list id in the query (`list=`), when there is one. */
function listOf(request: RoutedRequest): string | undefined {
  const list = parseQuery(request.query).list;
  return typeof list === 'string' && list !== '' ? list : undefined;
}
