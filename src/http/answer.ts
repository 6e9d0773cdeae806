// The one shape every route answers with, and the one writer that puts an answer on the wire. Every answer of
// both services passes the writer, so the headers every answer carries are added here, once
// (docs/forms-api.md "HTTP details").
import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';

/**
 * Header names in lower case. A record belongs to its answer: the writer adds `content-length` and
 * `x-content-type-options` to it when they are missing, so a record shared by many answers must already carry
 * the length. A flat [name, value, ...] list is for answers prepared once and sent many times, and must be
 * complete but for `x-content-type-options`, which the writer adds to a copy it keeps for that list.
 */
export type AnswerHeaders = Record<string, string> | readonly string[];

export interface Answer {
  status: number;
  headers: AnswerHeaders;
  /**
   * JSON or HTML text, or prepared bytes; none for 204, 303, 304 and 405 on form paths. A stream (an export that
   * must not be held in memory whole) is sent chunked, without Content-Length; when it fails midway the
   * connection is cut, so that a client never takes half a file for all of it.
   */
  body?: string | Buffer | Readable;
  /**
   * The Origin header a `403 origin_not_allowed` refused, for the request line (docs/forms-api.md "Logs"): an
   * origin names a site, not a person, and it is what a developer needs to see to fix allowed_origins.
   */
  refusedOrigin?: string;
  /** The request line is written without the client's address (the analytics' events: docs/analytics.md "Privacy"). */
  unloggedAddress?: boolean;
}

/** Statuses that never carry a body, so no Content-Length either (RFC 9110 sections 6.4.1 and 15.4.5). */
const BODILESS = new Set([204, 304]);

/**
 * On every answer: a browser takes a body for the type it is declared as, never for what its bytes look like, so
 * no JSON, feed, image or error text can be run as a script or page (docs/forms-api.md "HTTP details").
 */
export const NOSNIFF_NAME = 'x-content-type-options';
export const NOSNIFF_VALUE = 'nosniff';

/** Each prepared flat list with nosniff added (or the list itself when it has it): made once per list. */
const listsWithNosniff = new WeakMap<readonly string[], readonly string[]>();

/**
 * Writes `answer`; `withBody` is false for HEAD (the headers still give the length of the GET answer).
 * Throws what Node throws for a header it refuses; the front door turns that into a 500.
 */
export function writeAnswer(response: ServerResponse, answer: Answer, withBody: boolean): void {
  const { body } = answer;
  const headers = withNosniff(answer.headers);
  if (body instanceof Readable) {
    response.writeHead(answer.status, headers as Record<string, string>);
    if (!withBody) {
      body.destroy();
      response.end();
      return;
    }
    pipeline(body, response, (error) => {
      if (error) response.destroy();
    });
    return;
  }
  if (!Array.isArray(headers) && !BODILESS.has(answer.status)) {
    const record = headers as Record<string, string>;
    // Added to the answer's own record, never to a spread copy: Node's writeHead costs several microseconds
    // more on a copied object, which every rejected submission would pay (docs/performance.md).
    if (record['content-length'] === undefined) record['content-length'] = String(byteLength(body));
  }
  response.writeHead(answer.status, headers as Record<string, string>);
  response.end(withBody ? body : undefined);
}

/** `headers` with X-Content-Type-Options: the answer's own record added to, a prepared list's copy reused. */
function withNosniff(headers: AnswerHeaders): AnswerHeaders {
  if (Array.isArray(headers)) {
    const list = headers as readonly string[];
    let complete = listsWithNosniff.get(list);
    if (complete === undefined) {
      complete = hasName(list, NOSNIFF_NAME) ? list : [...list, NOSNIFF_NAME, NOSNIFF_VALUE];
      listsWithNosniff.set(list, complete);
    }
    return complete;
  }
  const record = headers as Record<string, string>;
  if (record[NOSNIFF_NAME] !== undefined) return record;
  // A frozen record (a constant shared by answers) is copied; an answer's own record is added to in place, for
  // the reason given at content-length below.
  if (!Object.isExtensible(record)) return { ...record, [NOSNIFF_NAME]: NOSNIFF_VALUE };
  record[NOSNIFF_NAME] = NOSNIFF_VALUE;
  return record;
}

function hasName(list: readonly string[], name: string): boolean {
  for (let index = 0; index < list.length; index += 2) if ((list[index] as string).toLowerCase() === name) return true;
  return false;
}

function byteLength(body: string | Buffer | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}
