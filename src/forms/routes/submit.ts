// POST <form_path> (forms-service.md "POST <form_path>", contract section 3). The checks run in the
// contract's order: origin, rate limit, body size, body syntax, field validation, honeypot; then persist
// (archive) and deliver. Each outcome is counted and mapped to its answer here, in one place.
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FormConfig } from '../../config/schema.js';
import { toArchiveLine } from '../archive.js';
import { sendFormError, sendValidationError } from '../errors.js';
import type { SubmissionNotice } from '../notifications.js';
import { readFormBody } from '../request-body.js';
import { createCorsHeaders, isOriginAllowed } from '../rules/cors.js';
import { checkSubmission, type Submission } from '../rules/submission.js';
import type { FormsContext } from './context.js';

/** The POST handler of `form`. */
export function createSubmitHandler(form: FormConfig, context: FormsContext) {
  const { metrics, logger, clock, config } = context;
  const count = (counter: Parameters<typeof metrics.count>[1]) => metrics.count(form.path, counter);
  const limiter = context.rateLimits.limiterFor(form.path);

  return async function submit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const origin = request.headers.origin;
    if (!isOriginAllowed(origin, form.allowed_origins)) {
      count('origin_blocked');
      return closeUnread(request, reply).code(403).send({ error: 'origin_not_allowed' });
    }
    if (origin !== undefined) reply.headers(createCorsHeaders(origin));
    count('received');

    const token = limiter?.take(request.clientIp, clock());
    if (token && !token.allowed) {
      count('rate_limited');
      return sendFormError(closeUnread(request, reply).header('Retry-After', String(token.retryAfterSeconds)), 'rate_limited');
    }

    const body = await readFormBody(
      { stream: request.raw, contentType: request.bodyContentType, contentLength: request.headers['content-length'] },
      config.server.max_body_bytes,
    );
    if (!body.ok) {
      count(body.error);
      if (body.unread) closeUnread(request, reply);
      return sendFormError(reply, body.error, body.message);
    }

    const check = checkSubmission(form, body.fields);
    if (!check.ok) {
      count('validation_failed');
      return sendValidationError(reply, check.details);
    }
    if (check.honeypotHit) {
      count('honeypot_blocked');
      logger.info({ event: 'honeypot', form: form.path }, 'honeypot hit');
      return accept(reply);
    }
    return form.type === 'newsletter' ? signUp(check.submission, reply) : persistAndDeliver(check.submission, reply);
  };

  async function signUp(submission: Submission, reply: FastifyReply): Promise<FastifyReply> {
    const outcome = await context.newsletter.signup(form, submission.email);
    if (outcome === 'ok' || outcome === 'duplicate') return accept(reply);
    return sendFormError(reply, outcome);
  }

  async function persistAndDeliver(submission: Submission, reply: FastifyReply): Promise<FastifyReply> {
    const notice: SubmissionNotice = { form, submission, receivedAt: new Date(clock()).toISOString() };
    if (form.archive !== undefined) {
      try {
        await context.archive(path.join(config.data_dir, form.archive), toArchiveLine(notice));
      } catch (error) {
        count('persist_failed');
        logger.error({ event: 'archive_failed', form: form.path, reason: (error as NodeJS.ErrnoException).code ?? 'error' }, 'archive write failed');
        return sendFormError(reply, 'storage_failed');
      }
    }
    const outcome = await context.deliver(notice);
    return outcome === 'delivered' ? accept(reply) : sendFormError(reply, 'send_failed');
  }

  /** 200 {"ok":true}, or 303 to redirect_url: the same for every accepted submission, honeypot hits included. */
  function accept(reply: FastifyReply): FastifyReply {
    if (form.redirect_url !== undefined) return reply.code(303).header('Location', form.redirect_url).send();
    return reply.code(200).send({ ok: true });
  }
}

/**
 * The body was not (fully) read: close the connection after the answer, so that Node does not read and
 * discard the rest of a body that may be huge or endless.
 */
function closeUnread(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { headers } = request;
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  return hasBody && !request.raw.readableEnded ? reply.header('Connection', 'close') : reply;
}
