// The socket side of a service: Node's HTTP server around a front door, with the time-outs of
// docs/forms-api.md "Time-outs and stopping", 100-continue, Node's own parse errors answered in the error catalogue's shape,
// and a graceful close.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ListenAddress } from '../config/config.js';
import { rawErrorResponse, type ErrorCode } from './error-catalogue.js';
import type { RequestListener } from './front-door.js';

/** Read time-out for a whole request (headers and body), and the write (idle socket) time-out. */
export const REQUEST_READ_TIMEOUT_MS = 15_000;
export const RESPONSE_WRITE_TIMEOUT_MS = 30_000;

export interface HttpServerSettings {
  /** Read time-out of a whole request; REQUEST_READ_TIMEOUT_MS unless a test needs a shorter one. */
  requestTimeoutMs?: number;
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

/** Creates the server of `handle` (not listening yet). */
function createHttpServer(handle: RequestListener, settings: HttpServerSettings): { server: http.Server; startClosing(): void } {
  const requestTimeoutMs = settings.requestTimeoutMs ?? REQUEST_READ_TIMEOUT_MS;
  let closing = false;
  // Node checks requestTimeout only every connectionsCheckingInterval (30 s by default): check each second so
  // that a slow client is cut off about 15 s after it began.
  const server = http.createServer(
    { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) },
    (request, response) => {
      // No keep-alive for requests that arrive while the server is closing.
      if (closing) response.setHeader('connection', 'close');
      handle(request, response);
    },
  );
  server.timeout = RESPONSE_WRITE_TIMEOUT_MS;
  // Expect: 100-continue. Left to itself Node tells every such client to go on; one that declares a body over
  // the limit is answered (413 on a form, 405 on the blog) without being asked to send it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers['content-length']) > settings.maxBodyBytes)) response.writeContinue();
    server.emit('request', request, response);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, settings.commonHeaders));
  return { server, startClosing: () => void (closing = true) };
}

/** Creates the server of `handle` and listens on `listen`. */
export async function listenHttp(handle: RequestListener, listen: ListenAddress, settings: HttpServerSettings): Promise<RunningServer> {
  const { server, startClosing } = createHttpServer(handle, settings);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    server,
    address: `http://${host}:${bound.port}`,
    close: (graceMs) => {
      startClosing();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A keep-alive connection whose answer was in flight becomes idle once it is written: close it then, not
      // when its client or the keep-alive time-out would.
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
