// POST <form_path>: runs the form's submit flow and turns its outcome into the answer of docs/forms-api.md
// "POST <path>": the catalogue's status and body, the CORS headers for an allowed Origin, Retry-After,
// the redirect of an accepted submission.
import type { FormConfig } from '../../config/config.js';
import type { Answer } from '../../http/answer.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Handler } from '../../http/route-table.js';
import { createCorsHeaders } from '../rules/cors.js';
import type { FieldError } from '../rules/submission.js';
import type { SubmitInput, SubmitOutcome } from '../submit-flow.js';

const OK_BODY = '{"ok":true}';

/** The POST handler of `form`. */
export function createSubmitRoute(form: FormConfig, submit: (input: SubmitInput) => Promise<SubmitOutcome>): Handler {
  const validationAnswer = createValidationAnswers();
  return async function submitRoute(request) {
    const { raw } = request;
    const { headers } = raw;
    const origin = headers.origin;
    const outcome = await submit({
      origin,
      clientAddress: request.clientAddress,
      contentType: headers['content-type'],
      contentLength: headers['content-length'],
      referer: headers.referer,
      body: raw,
    });
    // A new object literal per answer, never a spread copy of prepared headers: Node's writeHead takes some 15 us
    // longer over a copied object, which a rejected submission with an Origin header would pay every time.
    const answerHeaders: Record<string, string> =
      origin === undefined || (outcome.kind === 'refused' && outcome.code === 'origin_not_allowed') ? {} : createCorsHeaders(origin);
    // A body left unread (refused before reading, or cut off at the size limit): close the connection after
    // the answer, so that Node does not read and discard the rest of a body that may be huge or endless.
    if (!raw.readableEnded && (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0)) {
      answerHeaders.connection = 'close';
    }
    if (outcome.kind === 'accepted') return accept(form, answerHeaders);
    if (outcome.kind === 'invalid') return validationAnswer(answerHeaders, outcome.details);
    if (outcome.retryAfterSeconds !== undefined) answerHeaders['retry-after'] = String(outcome.retryAfterSeconds);
    const answer = errorAnswer(outcome.code, answerHeaders, outcome.message);
    if (outcome.code === 'origin_not_allowed') answer.refusedOrigin = origin;
    return answer;
  };
}

/** 200 {"ok":true}, or 303 to redirect_url: the same for every accepted submission, honeypot hits included. */
function accept(form: FormConfig, headers: Record<string, string>): Answer {
  if (form.redirect_url !== undefined) {
    headers.location = form.redirect_url;
    return { status: 303, headers };
  }
  headers['content-type'] = JSON_CONTENT_TYPE;
  return { status: 200, headers, body: OK_BODY };
}

/**
 * `400 validation` with one detail per invalid field, in the order name, email, service, message. A form's messages
 * come from a small fixed set (rules/submission.ts), so each list of them is serialized once and its text and length
 * remembered: a few hundred lists at most, and a rejected request is spared the `JSON.stringify` that would otherwise
 * take some 4 % of its CPU. The memo is a tree walked by field and message, strings the rules hold once, so that a
 * lookup hashes no key built per request.
 */
function createValidationAnswers(): (headers: Record<string, string>, details: readonly FieldError[]) => Answer {
  let root = createMemoNode();
  let size = 0;
  return (headers, details) => {
    let node = root;
    for (const detail of details) {
      let byMessage = node.next.get(detail.field);
      if (byMessage === undefined) node.next.set(detail.field, (byMessage = new Map()));
      let next = byMessage.get(detail.message);
      if (next === undefined) {
        if (size >= VALIDATION_MEMO_SIZE) {
          // Start over; the list being answered is memoized again from a fresh root.
          root = createMemoNode();
          size = 0;
          return answerWith(headers, serialize(details));
        }
        byMessage.set(detail.message, (next = createMemoNode()));
        size += 1;
      }
      node = next;
    }
    if (node.body === undefined) node.body = serialize(details);
    return answerWith(headers, node.body);
  };
}

interface MemoNode {
  next: Map<string, Map<string, MemoNode>>;
  body: { text: string; length: string } | undefined;
}

function createMemoNode(): MemoNode {
  return { next: new Map(), body: undefined };
}

function serialize(details: readonly FieldError[]): { text: string; length: string } {
  const text = JSON.stringify({ error: 'validation', details });
  return { text, length: String(Buffer.byteLength(text)) };
}

function answerWith(headers: Record<string, string>, body: { text: string; length: string }): Answer {
  headers['content-type'] = JSON_CONTENT_TYPE;
  headers['content-length'] = body.length;
  return { status: 400, headers, body: body.text };
}

/** More memo entries than any form's messages can combine into; a bound all the same. */
const VALIDATION_MEMO_SIZE = 1000;
