// Every error answer of both services (docs/forms-api.md "POST <path>", docs/blog.md "What the API answers"): one code, its
// status and the message people see. Messages are fixed text, so no answer ever echoes what a client sent.
import type { Answer } from './answer.js';

export const ERROR_CATALOGUE = {
  bad_request: { status: 400, message: 'The request could not be read.' },
  invalid_body: { status: 400, message: 'The request body could not be read.' },
  invalid_query: { status: 400, message: 'The query is not valid.' },
  validation: { status: 400, message: undefined },
  spam: { status: 400, message: 'The submission was taken for spam and not delivered.' },
  unauthorized: { status: 401, message: undefined },
  origin_not_allowed: { status: 403, message: undefined },
  not_found: { status: 404, message: undefined },
  draft: { status: 404, message: undefined },
  method_not_allowed: { status: 405, message: undefined },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  body_too_large: { status: 413, message: 'The request body is too large.' },
  rate_limited: { status: 429, message: 'Too many submissions from your address. Please try again later.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  internal_error: { status: 500, message: 'The server could not handle this request. Please try again later.' },
  send_failed: { status: 500, message: 'Your submission could not be delivered. Please try again later.' },
  storage_failed: { status: 500, message: 'Your submission could not be saved. Please try again later.' },
  unavailable: { status: 503, message: 'The service is briefly unavailable. Please try again in a moment.' },
} as const satisfies Record<string, { status: number; message: string | undefined }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The message of the 400 for a path whose percent-encoding is malformed (both services). */
export const BAD_PATH_MESSAGE = 'The request path is not valid.';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The JSON body of `code`: `{"error":code}`, with the catalogue's message or `message` when there is one. */
export function errorBody(code: ErrorCode, message?: string): string {
  const text = message ?? ERROR_CATALOGUE[code].message;
  return JSON.stringify(text === undefined ? { error: code } : { error: code, message: text });
}

/** The answer for `code`; `headers` is the answer's own record (CORS, Retry-After, ...), added to in place. */
export function errorAnswer(code: ErrorCode, headers: Record<string, string> = {}, message?: string): Answer {
  headers['content-type'] = JSON_CONTENT_TYPE;
  return { status: ERROR_CATALOGUE[code].status, headers, body: errorBody(code, message) };
}

/** The status line text and JSON bytes of `code`, for answers written on a bare socket (see http-server.ts). */
export function rawErrorResponse(code: ErrorCode, extraHeaders: Readonly<Record<string, string>> = {}): string {
  const { status } = ERROR_CATALOGUE[code];
  const body = errorBody(code);
  const extra = Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  // Nosniff as on every answer the writer sends (answer.ts).
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n${extra}Connection: close\r\n\r\n${body}`;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };
