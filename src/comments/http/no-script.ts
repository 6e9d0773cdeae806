// A comment form sent by a page without script (docs/comments.md "A form without script"): the browser posts the
// form itself, so the answer is a 303 back to the page it came from, at the new comment or at the notice that it
// waits. Pure: it reads headers only.
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a POST came from a plain HTML form: form-encoded, not asking for JSON, and sent from a page (Referer) of
 * an allowed origin, the only pages the answer may send the browser back to.
 */
export function isNoScriptPost(headers: IncomingHttpHeaders, allowedOrigins: readonly string[]): boolean {
  const type = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return false;
  if (/\bapplication\/json\b/i.test(headers.accept ?? '')) return false;
  const referer = headers.referer;
  if (referer === undefined || !URL.canParse(referer)) return false;
  return allowedOrigins.includes(new URL(referer).origin);
}

/** The page `referer` at the published comment `id`, or at the "pending" notice when it waits. */
export function noScriptLocation(referer: string, id: string | undefined): string {
  const page = new URL(referer);
  page.hash = id === undefined ? 'comment-pending' : `comment-${id}`;
  return page.href;
}
