// The Fastify factory both services share: time-outs, the one request log line, not-found and error answers.
import http from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../log.js';
import { resolveClientIp } from './client-ip.js';

export interface HttpAppOptions {
  logger: Logger;
  trustProxyHeaders?: boolean;
  bodyLimit?: number;
}

/** Read time-out for a whole request (headers and body), and the write (idle socket) time-out. */
export const REQUEST_READ_TIMEOUT_MS = 15_000;
export const RESPONSE_WRITE_TIMEOUT_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The client address per forms-service.md "Limits". */
    clientIp: string;
  }
}

/** Builds a Fastify app that logs one JSON line per request: method, path, status, duration_ms, ip. */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const { logger } = options;
  const trustProxyHeaders = options.trustProxyHeaders ?? false;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    disableRequestLogging: true,
    bodyLimit: options.bodyLimit,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Node checks requestTimeout only every connectionsCheckingInterval (30 s by default): check each second
    // so that a slow client is cut off about 15 s after it began.
    serverFactory: (handler) => {
      const server = http.createServer(
        { requestTimeout: REQUEST_READ_TIMEOUT_MS, headersTimeout: REQUEST_READ_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
        handler,
      );
      server.timeout = RESPONSE_WRITE_TIMEOUT_MS;
      return server;
    },
  });
  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (request) => {
    request.clientIp = resolveClientIp(request.headers, request.raw.socket.remoteAddress, trustProxyHeaders);
  });
  app.addHook('onResponse', async (request, reply) => {
    logger.info(
      {
        method: request.method,
        path: request.url.split('?', 1)[0],
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        ip: request.clientIp,
      },
      'request',
    );
  });
  return app;
}
