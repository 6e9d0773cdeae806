// Admin answers: a page rendered to HTML by preact-render-to-string (which escapes every text and attribute), and
// the 303 redirect. The admin's security headers are added to every answer where it leaves the admin (admin.ts).
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Answer } from '../http/answer.js';
import { HTML_CONTENT_TYPE } from './admin-headers.js';

/** A whole HTML document answer of `page` (a <Layout> element) with `status`. */
export function htmlAnswer(status: number, page: VNode, headers: Record<string, string> = {}): Answer {
  headers['content-type'] = HTML_CONTENT_TYPE;
  return { status, headers, body: `<!doctype html>${renderToString(page)}` };
}

/** `303 See Other` to `location`, a path under /admin (RFC 9110 section 15.4.4). */
export function redirectAnswer(location: string, headers: Record<string, string> = {}): Answer {
  headers.location = location;
  return { status: 303, headers };
}
