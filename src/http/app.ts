// The Fastify factory both services share: time-outs, the one request log line, not-found, 405 and error answers.
import http from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../log.js';
import { createClientAddressResolver } from './client-ip.js';
import { createErrorHandler } from './error-handler.js';
import { createRequestLog, type RequestLog } from './request-log.js';

export interface HttpAppOptions {
  logger: Logger;
  /** Proxies in front of the service whose X-Forwarded-For hops are trusted (server.trust_proxy_headers). */
  trustedProxyHops?: number;
  /** Read time-out for a whole request; 15 s unless a test needs a shorter one. */
  requestTimeoutMs?: number;
  /**
   * The methods a path answers, for paths that exist. A request no route matches on such a path gets
   * `405` with `Allow` and an empty body instead of `404` (forms-service.md "Endpoints").
   */
  allowedMethods?: (path: string) => readonly string[] | undefined;
}

/** Read time-out for a whole request (headers and body), and the write (idle socket) time-out. */
export const REQUEST_READ_TIMEOUT_MS = 15_000;
export const RESPONSE_WRITE_TIMEOUT_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The client address per forms-service.md "Limits". */
    clientIp: string;
  }
  interface FastifyInstance {
    /** The app's request lines, written in batches; flushed when the app closes. */
    requestLog: RequestLog;
  }
}

/** Builds a Fastify app that logs one JSON line per request: method, path, status, duration_ms, ip. */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const { logger } = options;
  const clientAddressOf = createClientAddressResolver(options.trustedProxyHops ?? 0);
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_READ_TIMEOUT_MS;
  /** The one request line of forms-service.md: method, path without query, status, duration_ms, ip. */
  const requestLog = createRequestLog(logger);
  function logRequest(request: FastifyRequest, reply: FastifyReply): void {
    requestLog.write({
      method: request.method,
      path: request.url.split('?', 1)[0] as string,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.clientIp || clientAddressOf(request.raw),
    });
  }
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's own request lines are off: the onResponse hook below writes the one line the spec asks for.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A malformed percent-encoding in the path: answer without echoing it (Fastify's default does).
    // Fastify answers it before any hook runs, so the request line is written here.
    frameworkErrors: (_error, request, reply) => {
      const answer = reply as FastifyReply;
      answer.raw.once('finish', () => logRequest(request, answer));
      void answer.code(400).send({ error: 'bad_request', message: 'The request path is not valid.' });
    },
    // Node checks requestTimeout only every connectionsCheckingInterval (30 s by default): check each second
    // so that a slow client is cut off about 15 s after it began.
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          requestTimeout: requestTimeoutMs,
          headersTimeout: requestTimeoutMs,
          connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
        },
        handler,
      );
      server.timeout = RESPONSE_WRITE_TIMEOUT_MS;
      return server;
    },
  });
  app.decorate('requestLog', requestLog);
  // After the last answers: the pending lines are written before the service's shutdown logs its own.
  app.addHook('onClose', async () => requestLog.flush());
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (request) => {
    request.clientIp = clientAddressOf(request.raw);
  });
  app.addHook('onResponse', async (request, reply) => logRequest(request, reply));
  app.setErrorHandler(createErrorHandler(logger));
  app.setNotFoundHandler(async (request, reply) => {
    const allowed = options.allowedMethods?.(request.url.split('?', 1)[0] as string);
    if (allowed) return reply.code(405).header('Allow', allowed.join(', ')).send();
    return reply.code(404).send({ error: 'not_found' });
  });
  return app;
}
