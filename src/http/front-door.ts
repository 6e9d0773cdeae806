// The one way into a service: every request passes here. The door finds the route (404 and 405 from the
// route table), the client address, writes the one request line, and catches every throw or rejection of a
// route (and of the writer) into the error catalogue's 500 and one `error` log line. Nothing a request does
// can end the process. Every door also answers GET /favicon.ico (favicon.ts) unless its service routes the path,
// and every answer leaves through the one writer (answer.ts), which adds the headers all answers carry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../kit/log.js';
import { failureSite, safeReason } from '../kit/safe-reason.js';
import { writeAnswer, type Answer } from './answer.js';
import { FAVICON_ROUTE } from './favicon.js';
import type { RequestLog } from './request-log.js';
import { NO_ROUTE, type RequestDurations } from './request-durations.js';
import { createRouteLookup, type Route } from './route-table.js';

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** The answers the door gives itself; each call returns an answer of its own (its headers are added to). */
export interface DoorAnswers {
  /** No route has the path (404), or its percent-encoding is malformed (400). */
  notFound(): Answer;
  badPath(): Answer;
  /** The route lacks the method: 405 with `allow`. */
  methodNotAllowed(allow: string): Answer;
  /** Something failed that the client cannot mend: 500 with a body that says nothing internal. */
  internalError(): Answer;
}

export interface FrontDoorOptions {
  routes: readonly Route[];
  answers: DoorAnswers;
  clientAddressOf(request: IncomingMessage): string;
  requestLog: RequestLog;
  logger: Logger;
  /** Where each answered request is counted by route pattern, for /metrics (docs/forms-api.md "/metrics"). */
  requestDurations?: RequestDurations;
}

/** The request listener of a service. */
export function createFrontDoor(options: FrontDoorOptions): RequestListener {
  const { answers, clientAddressOf, requestLog, logger, requestDurations } = options;
  // After the service's own routes: a path listed twice keeps its first route.
  const lookUp = createRouteLookup([...options.routes, FAVICON_ROUTE]);
  // The pattern of the route dispatch matched last, read as soon as dispatch returns (nothing runs in between).
  let matchedRoute = NO_ROUTE;

  return function handle(raw, response) {
    const started = performance.now();
    const method = raw.method ?? 'GET';
    const url = raw.url ?? '/';
    const mark = url.indexOf('?');
    const rawPath = mark === -1 ? url : url.slice(0, mark);
    const clientAddress = clientAddressOf(raw);
    let answer: Answer | Promise<Answer>;
    try {
      answer = dispatch(method, rawPath, url, mark, clientAddress, raw);
    } catch (error) {
      answer = failed(error, method, rawPath);
    }
    const route = matchedRoute;
    // finish and failed are made once per door and take the request's few facts as arguments.
    if (answer instanceof Promise) {
      answer.then(
        (value) => finish(response, value, method, rawPath, clientAddress, started, route),
        (error: unknown) => finish(response, failed(error, method, rawPath), method, rawPath, clientAddress, started, route),
      );
    } else {
      finish(response, answer, method, rawPath, clientAddress, started, route);
    }
  };

  /** Writes `answer` (or, when Node refuses it, the 500) and the request line. */
  function finish(response: ServerResponse, answer: Answer, method: string, rawPath: string, clientAddress: string, started: number, route: string): void {
    if (response.writableEnded || response.destroyed) return; // the client went away
    try {
      writeAnswer(response, answer, method !== 'HEAD');
    } catch (error) {
      if (response.headersSent) return void response.destroy();
      try {
        writeAnswer(response, failed(error, method, rawPath), method !== 'HEAD');
      } catch {
        return void response.destroy();
      }
    }
    const elapsedMs = performance.now() - started;
    requestLog.write({
      method,
      path: rawPath,
      status: response.statusCode,
      durationMs: Math.round(elapsedMs * 100) / 100,
      ip: answer.unloggedAddress ? '' : clientAddress,
      origin: answer.refusedOrigin,
    });
    requestDurations?.observe(route, method, response.statusCode, elapsedMs / 1000);
  }

  /** Logs a failure once, without its message, and gives the 500 to answer with. */
  function failed(error: unknown, method: string, rawPath: string): Answer {
    logger.error({ event: 'internal_error', reason: safeReason(error), at: failureSite(error), method, path: rawPath }, 'request failed');
    return answers.internalError();
  }

  function dispatch(method: string, rawPath: string, url: string, mark: number, clientAddress: string, raw: IncomingMessage): Answer | Promise<Answer> {
    matchedRoute = NO_ROUTE;
    let path = rawPath;
    if (rawPath.includes('%')) {
      // Routes match the decoded path: "/cont%61ct" is "/contact".
      try {
        path = decodeURIComponent(rawPath);
      } catch {
        return answers.badPath();
      }
    }
    const match = lookUp(method, path);
    if (match === undefined) return answers.notFound();
    matchedRoute = match.route;
    if (match.handler === undefined) return answers.methodNotAllowed(match.allow);
    const query = mark === -1 ? '' : url.slice(mark + 1);
    return match.handler({ method, path, url, query, clientAddress, raw });
  }
}
