// The pages of the links in comment mails, on the blog listener beside the comment API (docs/comments.md "Reply
// notifications", "The owner's mail"):
//
//   GET|POST /api/blog/comments/confirm?token=               the button; its POST confirms the address
//   GET|POST /api/blog/comments/unsubscribe?token=           the button; its POST stops the mails (one thread or all);
//                                                            the POST is RFC 8058's one-click unsubscribe too
//   GET|POST /api/blog/comments/moderate?token=&action=      the owner's Approve or Spam button; its POST decides
//
// No GET changes anything: link checkers and mail scanners fetch links. The token in the query is the capability,
// so the POSTs come from any origin and need no CSRF token.
import { parse as parseQuery } from 'node:querystring';
import type { Answer } from '../../http/answer.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import type { Handler, Route, RoutedRequest } from '../../http/route-table.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { CommentMail } from '../comment-mail.js';
import * as pages from './comment-mail-pages.js';

export const COMMENT_CONFIRM_PATH = '/api/blog/comments/confirm';
export const COMMENT_UNSUBSCRIBE_PATH = '/api/blog/comments/unsubscribe';
export const COMMENT_MODERATE_PATH = '/api/blog/comments/moderate';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
  // The pages run no script and load nothing; their one form posts back to the same origin.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

/** The three routes over `mail`; `site` names the site on the pages. */
export function createCommentMailRoutes(mail: CommentMail, site: string): Route[] {
  const showConfirm: Handler = async (request) => {
    const token = valueOf(request, 'token');
    if (!token || !(await mail.isConfirmationValid(token))) return answer(pages.goneConfirmPage(site));
    return answer(pages.confirmButtonPage(site, new URLSearchParams({ token }).toString()));
  };
  const confirm: Handler = async (request) => {
    const token = valueOf(request, 'token');
    if (!token || (await mail.confirm(token)) === 'gone') return answer(pages.goneConfirmPage(site));
    return answer(pages.confirmedPage(site));
  };
  const showUnsubscribe: Handler = (request) => {
    const token = valueOf(request, 'token');
    if (!token || !/^[A-Za-z0-9_-]{22}(\.[0-9a-z]{1,40})?$/.test(token)) return answer(pages.badLinkPage(site));
    return answer(pages.unsubscribeButtonPage(site, new URLSearchParams({ token }).toString(), token.includes('.')));
  };
  const unsubscribe: Handler = async (request) => {
    const token = valueOf(request, 'token');
    if (!token || (await mail.unsubscribe(token)) === 'unknown') return answer(pages.badLinkPage(site));
    return answer(pages.unsubscribedPage(site));
  };
  const showModerate: Handler = async (request) => {
    const token = valueOf(request, 'token');
    const action = actionOf(request);
    if (!token || !action || !(await mail.isModerationValid(token))) return answer(pages.goneModeratePage(site));
    return answer(pages.moderateButtonPage(site, new URLSearchParams({ token, action }).toString(), action));
  };
  const moderate: Handler = async (request) => {
    const token = valueOf(request, 'token');
    const action = actionOf(request);
    if (!token || !action) return answer(pages.goneModeratePage(site));
    const outcome = await mail.moderate(token, action, request.clientAddress);
    return answer(outcome === 'gone' ? pages.goneModeratePage(site) : pages.moderatedPage(site, outcome));
  };
  return [
    { path: COMMENT_CONFIRM_PATH, methods: { GET: orUnavailable(showConfirm), POST: orUnavailable(confirm) } },
    { path: COMMENT_UNSUBSCRIBE_PATH, methods: { GET: orUnavailable(showUnsubscribe), POST: orUnavailable(unsubscribe) } },
    { path: COMMENT_MODERATE_PATH, methods: { GET: orUnavailable(showModerate), POST: orUnavailable(moderate) } },
  ];
}

/** A shared store (PostgreSQL) out of reach: `503 {"error":"unavailable"}`, nothing changed; the link works again later. */
function orUnavailable(handler: Handler): Handler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof UnavailableError) return errorAnswer('unavailable', { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
      throw error;
    }
  };
}

function valueOf(request: RoutedRequest, name: string): string | undefined {
  const value = parseQuery(request.query)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function actionOf(request: RoutedRequest): 'approve' | 'spam' | undefined {
  const action = valueOf(request, 'action');
  return action === 'approve' || action === 'spam' ? action : undefined;
}

function answer(page: pages.CommentMailPage): Answer {
  return { status: page.status, headers: { ...PAGE_HEADERS }, body: page.html };
}
