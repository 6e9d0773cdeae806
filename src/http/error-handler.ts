// The one place where an error that escaped a route becomes an answer (STYLE.md "one error catalogue"):
// client errors Fastify raises keep their status with a generic body; anything else is a logged 500 whose
// body says nothing internal. Bodies never echo request input.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../log.js';

/** Machine-readable codes for the client errors Fastify itself may raise. */
const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
};

/** The body of an unexpected failure: fixed text, so no stack, path or input can leak. */
export const INTERNAL_ERROR_BODY = Object.freeze({
  error: 'internal_error',
  message: 'The server could not handle this request. Please try again later.',
});

/** Builds the Fastify error handler; `logger` receives unexpected errors with their stack. */
export function createErrorHandler(logger: Logger) {
  return function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    const status = error.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      void reply.code(status).send({ error: CLIENT_ERROR_CODES[status] ?? 'bad_request', message: STATUS_CODES[status] ?? 'Bad Request' });
      return;
    }
    logger.error({ event: 'internal_error', err: error, method: request.method, path: request.url.split('?', 1)[0] }, 'request failed');
    void reply.code(500).send(INTERNAL_ERROR_BODY);
  };
}
