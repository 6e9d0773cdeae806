// Answers POST <form_path> in front of Fastify, with the same decision as the Fastify route (submit-decision.ts).
//
// Why: the rejected submission is measured against a bare node:http server that reads, parses and answers the
// same body (target: 0.6 of its throughput); Fastify's routing, hooks and reply pipeline were about a fifth of
// postbox's CPU per request there (docs/performance.md). Everything else (OPTIONS, other methods, other
// paths, /health, /metrics, confirmation links, paths Fastify would decode to a form path) goes on to Fastify.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FormConfig } from '../../config/schema.js';
import { createClientAddressResolver } from '../../http/client-ip.js';
import type { RequestLog } from '../../http/request-log.js';
import type { SubmitAnswer, SubmitRequest } from './submit-decision.js';

export interface FormsFastPathOptions {
  /** The decision of each form, by its path. */
  decisions: ReadonlyMap<FormConfig['path'], (request: SubmitRequest) => Promise<SubmitAnswer>>;
  /** server.trust_proxy_headers as a number of trusted proxy hops. */
  trustedProxyHops: number;
  requestLog: RequestLog;
  /** server.max_body_bytes: a larger declared body is refused before the client is asked to send it. */
  maxBodyBytes: number;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Puts the fast path in front of the server's request listener (Fastify's). */
export function installFormsFastPath(server: Server, options: FormsFastPathOptions): void {
  const { decisions, trustedProxyHops, requestLog, maxBodyBytes } = options;
  const clientIpOf = createClientAddressResolver(trustedProxyHops);
  const next = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const fallback: RequestListener = (request, response) => {
    for (const listener of next) listener.call(server, request, response);
  };
  // Expect: 100-continue. Left to itself Node tells every such client to go on; one that declares a body over
  // the limit is answered 413 (the decision does not read such a body) without being asked to send it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers['content-length']) > maxBodyBytes)) response.writeContinue();
    server.emit('request', request, response);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST') return fallback(request, response);
    const url = request.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const decide = decisions.get(path);
    if (decide === undefined) return fallback(request, response);

    const started = performance.now();
    // As Fastify does once the app is closing: no keep-alive for requests that arrive during shutdown.
    if (!server.listening) response.setHeader('connection', 'close');
    const { headers } = request;
    const clientIp = clientIpOf(request);
    void decide({
      path,
      origin: headers.origin,
      contentType: headers['content-type'],
      contentLength: headers['content-length'],
      transferEncoding: headers['transfer-encoding'],
      body: request,
      clientIp,
    }).then((answer) => {
      if (!write(response, answer)) return;
      // Once the answer is handed to Node rather than on 'finish': a listener per response cost more than
      // the line itself. Status and duration are the same to the log's reader.
      requestLog.write({
        method: 'POST',
        path,
        status: response.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ip: clientIp,
      });
    });
  });
}

/**
 * Adds Content-Length to the answer's own header object and writes it. Not a copy: spreading the headers into a
 * new object made `writeHead` cost about 8 µs more per request (an A/B of the rejected path, docs/performance.md).
 */
function write(response: ServerResponse, answer: SubmitAnswer): boolean {
  if (response.writableEnded || response.destroyed) return false;
  const body = answer.body ?? '';
  const headers = answer.headers;
  headers['content-length'] = String(Buffer.byteLength(body));
  response.writeHead(answer.status, headers);
  response.end(body);
  return true;
}
