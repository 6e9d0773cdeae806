// POST <form_path> (forms-service.md "POST <form_path>", contract section 3), without any HTTP framework: the
// checks run in the contract's order (origin, rate limit, body size, body syntax, field validation, honeypot),
// then persist (archive) and deliver. Each outcome is counted and mapped to its answer here, in one place; the
// Fastify route (submit.ts) and the fast path in front of Fastify (fast-path.ts) only write the answer.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FormConfig } from '../../config/schema.js';
import { INTERNAL_ERROR_BODY } from '../../http/error-handler.js';
import { toArchiveLine } from '../archive.js';
import { FORM_ERRORS, type FormErrorCode } from '../errors.js';
import type { SubmissionNotice } from '../notifications.js';
import { readFormBody } from '../request-body.js';
import { createCorsHeaders, isOriginAllowed } from '../rules/cors.js';
import { createSubmissionCheck, type FieldError, type Submission } from '../rules/submission.js';
import type { FormsContext } from './context.js';

/** What the decision needs from a request, whatever server received it. */
export interface SubmitRequest {
  /** The request path without the query, for the log line of an unexpected failure. */
  path: string;
  origin: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  /** The unread body. */
  body: Readable;
  clientIp: string;
}

/** The answer to write: header names in lower case, in the order they are sent; `body` is JSON text. */
export interface SubmitAnswer {
  status: number;
  /** A new object for each answer: whoever writes the answer may add to it. */
  headers: Record<string, string>;
  body: string | undefined;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The decision for POST on `form`: never rejects (an unexpected failure is a logged 500). */
export function createSubmitDecision(form: FormConfig, context: FormsContext): (request: SubmitRequest) => Promise<SubmitAnswer> {
  const { metrics, logger, clock, config } = context;
  const count = (counter: Parameters<typeof metrics.count>[1]) => metrics.count(form.path, counter);
  const limiter = context.rateLimits.limiterFor(form.path);
  const checkSubmission = createSubmissionCheck(form);
  const validationError = createValidationAnswers();

  return async function decide(request: SubmitRequest): Promise<SubmitAnswer> {
    const origin = request.origin;
    if (!isOriginAllowed(origin, form.allowed_origins)) {
      count('origin_blocked');
      return answer(403, closeUnread(request, {}), { error: 'origin_not_allowed' });
    }
    // A new object literal per answer, never a spread copy of prepared headers: Node's writeHead took about
    // 15 us more per request with such a copy (an A/B of the rejected path with an Origin header).
    const headers: Record<string, string> = origin === undefined ? {} : createCorsHeaders(origin);
    try {
      return await decideAllowed(request, headers);
    } catch (error) {
      logger.error({ event: 'internal_error', err: error, method: 'POST', path: request.path }, 'request failed');
      return answer(500, headers, INTERNAL_ERROR_BODY);
    }
  };

  async function decideAllowed(request: SubmitRequest, headers: Record<string, string>): Promise<SubmitAnswer> {
    count('received');
    const token = limiter?.take(request.clientIp, clock());
    if (token && !token.allowed) {
      count('rate_limited');
      headers['retry-after'] = String(token.retryAfterSeconds);
      return formError(closeUnread(request, headers), 'rate_limited');
    }

    const body = await readFormBody(
      { stream: request.body, contentType: request.contentType, contentLength: request.contentLength },
      config.server.max_body_bytes,
    );
    if (!body.ok) {
      count(body.error);
      return formError(body.unread ? closeUnread(request, headers) : headers, body.error, body.message);
    }

    const check = checkSubmission(body.fields);
    if (!check.ok) {
      count('validation_failed');
      return validationError(headers, check.details);
    }
    if (check.honeypotHit) {
      count('honeypot_blocked');
      logger.info({ event: 'honeypot', form: form.path }, 'honeypot hit');
      return accept(headers);
    }
    return form.type === 'newsletter' ? signUp(check.submission, headers) : persistAndDeliver(check.submission, headers);
  }

  async function signUp(submission: Submission, headers: Record<string, string>): Promise<SubmitAnswer> {
    const outcome = await context.newsletter.signup(form, submission.email);
    if (outcome === 'ok' || outcome === 'duplicate') return accept(headers);
    return formError(headers, outcome);
  }

  async function persistAndDeliver(submission: Submission, headers: Record<string, string>): Promise<SubmitAnswer> {
    const notice: SubmissionNotice = { form, submission, receivedAt: new Date(clock()).toISOString() };
    if (form.archive !== undefined) {
      try {
        await context.archive(path.join(config.data_dir, form.archive), toArchiveLine(notice));
      } catch (error) {
        count('persist_failed');
        logger.error({ event: 'archive_failed', form: form.path, reason: (error as NodeJS.ErrnoException).code ?? 'error' }, 'archive write failed');
        return formError(headers, 'storage_failed');
      }
    }
    const outcome = await context.deliver(notice);
    return outcome === 'delivered' ? accept(headers) : formError(headers, 'send_failed');
  }

  /** 200 {"ok":true}, or 303 to redirect_url: the same for every accepted submission, honeypot hits included. */
  function accept(headers: Record<string, string>): SubmitAnswer {
    if (form.redirect_url !== undefined) {
      headers.location = form.redirect_url;
      return { status: 303, headers, body: undefined };
    }
    return answer(200, headers, { ok: true });
  }
}

/** `code` with its status (forms-service.md "Errors"); `message` overrides the catalogue text. */
function formError(headers: Record<string, string>, code: FormErrorCode, message?: string): SubmitAnswer {
  const entry = FORM_ERRORS[code];
  const text = message ?? entry.message;
  return answer(entry.status, headers, text === undefined ? { error: code } : { error: code, message: text });
}

/**
 * `400 validation` with one detail per invalid field, in the order name, email, service, message. A form's
 * messages come from a small fixed set (submission.ts), so each list of them is serialized once and its text
 * remembered: a few hundred lists at most, and `JSON.stringify` was about 4 % of a rejected request's CPU.
 */
function createValidationAnswers(): (headers: Record<string, string>, details: readonly FieldError[]) => SubmitAnswer {
  const bodies = new Map<string, string>();
  return (headers, details) => {
    let key = '';
    for (const detail of details) key += `${detail.field}\n${detail.message}\n`;
    let body = bodies.get(key);
    if (body === undefined) {
      if (bodies.size >= VALIDATION_MEMO_SIZE) bodies.clear();
      bodies.set(key, (body = JSON.stringify({ error: 'validation', details })));
    }
    headers['content-type'] = JSON_CONTENT_TYPE;
    return { status: 400, headers, body };
  };
}

/** More than any form's messages can combine into; a bound all the same. */
const VALIDATION_MEMO_SIZE = 1000;

function answer(status: number, headers: Record<string, string>, body: object): SubmitAnswer {
  headers['content-type'] = JSON_CONTENT_TYPE;
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * The body was not (fully) read: close the connection after the answer, so that Node does not read and
 * discard the rest of a body that may be huge or endless.
 */
function closeUnread(request: SubmitRequest, headers: Record<string, string>): Record<string, string> {
  const hasBody = request.transferEncoding !== undefined || Number(request.contentLength ?? 0) > 0;
  if (hasBody && !request.body.readableEnded) headers.connection = 'close';
  return headers;
}
