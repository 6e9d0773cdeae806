// The socket side of a service: Node's HTTP server around a front door, with the time-outs of
// docs/forms-api.md "Time-outs and stopping", 100-continue, Node's own parse errors answered in the error catalogue's shape,
// and a graceful close. A server may listen before its front door exists, so that a port in use stops
// `postbox serve` before any data is loaded or written.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ListenAddress } from '../config/config.js';
import { rawErrorResponse, type ErrorCode } from './error-catalogue.js';
import { sweepIdleConnections } from './idle-connections.js';
import type { RequestListener } from './front-door.js';

/**
 * Read time-out for a whole request (headers and body), and the idle time-out of a connection: how long writing
 * an answer may stall, and how long a kept-alive connection waits for its next request.
 */
export const REQUEST_READ_TIMEOUT_MS = 15_000;
export const CONNECTION_IDLE_TIMEOUT_MS = 30_000;

export interface HttpServerSettings {
  /**
   * Read time-out of a whole request; REQUEST_READ_TIMEOUT_MS unless a test needs a shorter one. Node takes it
   * when the server is made: listenHttp reads it, BoundServer.serve does not.
   */
  requestTimeoutMs?: number;
  /** Idle time-out of a connection; CONNECTION_IDLE_TIMEOUT_MS unless a test needs a shorter one (as requestTimeoutMs). */
  idleTimeoutMs?: number;
  /** A request that declares a larger body is answered without being told "100 Continue". */
  maxBodyBytes: number;
  /** Headers every answer of this service carries (the blog's CORS header), also on Node's own error answers. */
  commonHeaders?: Readonly<Record<string, string>>;
}

export interface RunningServer {
  server: http.Server;
  /** "http://host:port" as bound (port 0 becomes the real port). */
  address: string;
  /** Stops accepting, lets requests in flight finish for up to `graceMs`, then closes what is left. */
  close(graceMs: number): Promise<void>;
}

/** A server listening before its service exists (src/cli/serve.ts binds every port first). */
export interface BoundServer extends RunningServer {
  /** Starts answering through `handle`; requests that arrived since the bind are answered then, in order. */
  serve(handle: RequestListener, settings: HttpServerSettings): void;
}

/** Why a listen address could not be bound, in one line: `cannot listen on 127.0.0.1:8080: address already in use`. */
export class ListenError extends Error {
  readonly code: string | undefined;
  constructor(listen: ListenAddress, cause: NodeJS.ErrnoException) {
    const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    super(`cannot listen on ${host}:${listen.port}: ${LISTEN_FAILURES[cause.code ?? ''] ?? cause.code ?? cause.message}`, { cause });
    this.name = 'ListenError';
    this.code = cause.code;
  }
}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'address not available on this machine',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name not found (temporary failure)',
};

/** Creates a server that queues what arrives until `serve` hands it its front door. */
function createHttpServer(requestTimeoutMs: number, idleTimeoutMs: number): { server: http.Server; serve: BoundServer['serve']; startClosing(): void } {
  let closing = false;
  let handle: RequestListener | undefined;
  let settings: HttpServerSettings = { maxBodyBytes: 0 };
  const waiting: Array<() => void> = [];
  const whenServing = (run: () => void) => (handle ? run() : void waiting.push(run));
  // Node checks requestTimeout only every connectionsCheckingInterval (30 s by default): check each second so
  // that a slow client is cut off about 15 s after it began.
  const server = http.createServer({ requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) });
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    // No keep-alive for requests that arrive while the server is closing.
    if (closing) response.setHeader('connection', 'close');
    handle!(request, response);
  };
  // Once serving, a request goes straight to the door: no closure per request.
  server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    handle ? answer(request, response) : void waiting.push(() => answer(request, response)),
  );
  // One idle time-out per connection, for an answer that stalls and for the wait between two requests, kept by
  // a sweep (idle-connections.ts) instead of Node's socket time-out. Node's keep-alive time-out (5 s by default)
  // would make a new timer twice a request (its own after each answer, then the socket's again before the next
  // request): about 4 % of the CPU of a cached blog answer; a socket time-out alone, pushed back by every read
  // and write, about 3 % (docs/performance.md).
  server.timeout = 0;
  server.keepAliveTimeout = 0;
  // A client may shut down its sending side once its request is out (`nc -N`, a raw socket's end()). Left to
  // itself Node ends the connection at that FIN, and an answer not yet written is lost; allowed half-open,
  // it writes the answers still owed, then closes (lib/_http_server.js, socketOnEnd; the property is Node's own,
  // left out of its typings).
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  sweepIdleConnections(server, idleTimeoutMs);
  // Expect: 100-continue. Left to itself Node tells every such client to go on; one that declares a body over
  // the limit is answered (413 on a form, 405 on the blog) without being asked to send it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    whenServing(() => {
      if (!(Number(request.headers['content-length']) > settings.maxBodyBytes)) response.writeContinue();
      server.emit('request', request, response);
    }),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, settings.commonHeaders));
  const serve: BoundServer['serve'] = (serviceHandle, serviceSettings) => {
    handle = serviceHandle;
    settings = serviceSettings;
    for (const run of waiting.splice(0)) run();
  };
  return { server, serve, startClosing: () => void (closing = true) };
}

/**
 * Listens on `listen` with no service behind it yet: requests wait until `serve`. Rejects with a ListenError
 * when the address cannot be bound.
 */
export async function bindHttp(listen: ListenAddress, options: { requestTimeoutMs?: number; idleTimeoutMs?: number } = {}): Promise<BoundServer> {
  const { server, serve, startClosing } = createHttpServer(options.requestTimeoutMs ?? REQUEST_READ_TIMEOUT_MS, options.idleTimeoutMs ?? CONNECTION_IDLE_TIMEOUT_MS);
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) => reject(new ListenError(listen, error));
    server.once('error', refuse);
    server.listen(listen.port, listen.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    server,
    address: `http://${host}:${bound.port}`,
    serve,
    close: (graceMs) => {
      startClosing();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection whose answer was in flight becomes idle once it is written: close it then, not
      // when its client or the idle time-out would.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      return closed.finally(() => {
        clearInterval(sweep);
        clearTimeout(force);
      });
    },
  };
}

/** Listens on `listen` and answers through `handle` at once. */
export async function listenHttp(handle: RequestListener, listen: ListenAddress, settings: HttpServerSettings): Promise<RunningServer> {
  const bound = await bindHttp(listen, { requestTimeoutMs: settings.requestTimeoutMs, idleTimeoutMs: settings.idleTimeoutMs });
  bound.serve(handle, settings);
  return bound;
}

/** Node's names for what its parser refused, in the error catalogue. */
function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  return 'bad_request';
}

/**
 * A request Node could not parse, or one that ran past the read time-out: answered in the catalogue's shape
 * when nothing of an answer has gone out on the socket yet (as Node's default does), then the socket closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, commonHeaders: Readonly<Record<string, string>> | undefined): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed) return void socket.destroy();
  // Node's own handler looks at the answer in flight the same way (lib/_http_server.js, socketOnError).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawErrorResponse(clientErrorCode(error), commonHeaders));
  socket.destroy();
}
