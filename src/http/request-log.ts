// The one request line of docs/forms-api.md "Logs", for every service and every path: the JSON line a pino
// call would write (`{"level":30,"time":...,"method","path","status","duration_ms","ip","msg":"request"}`, and
// `"origin"` after `"ip"` on a refused Origin),
// written to the log's destination in batches (at most FLUSH_DELAY_MS late, and at shutdown): a pino call and
// a write per request would cost more than everything else a rejected submission or a cached blog answer needs.
// The destination and the time function are the logger's own, handed in by the composition root.
import type { LogOutput } from '../log.js';

export interface RequestLine {
  /** A method Node's HTTP parser accepted: upper-case letters only, nothing to escape. */
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** An address or "unknown" (client-ip.ts): nothing to escape. */
  ip: string;
  /** The refused Origin of a 403 origin_not_allowed; written cleaned (loggableOrigin). */
  origin?: string;
}

export interface RequestLog {
  write(line: RequestLine): void;
  /** Writes what is pending now (at shutdown, and before a test reads the log). */
  flush(): void;
}

/** Longest time a line waits before it is written, and the batch size that is written at once. */
export const FLUSH_DELAY_MS = 20;
const FLUSH_SIZE = 64 * 1024;
/** Paths whose JSON form is remembered (the same few URLs make most requests). */
const PATH_MEMO_SIZE = 1000;
/** pino's number for "info". */
const INFO = 30;
/** Longer than any real origin (a host name is at most 253 characters); a longer header is cut. */
export const MAX_LOGGED_ORIGIN = 300;

/** `origin` as the request line carries it: control characters removed, at most MAX_LOGGED_ORIGIN characters. */
export function loggableOrigin(origin: string): string {
  return origin.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, MAX_LOGGED_ORIGIN);
}

/** A request log on `output`; `isEnabled` tells whether info lines are wanted (the logger's level). */
export function createRequestLog(output: LogOutput, isEnabled: () => boolean): RequestLog {
  const { destination, timestamp } = output;
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let timeAt = -1;
  let timeText = '';
  // `,"method":...,"status":` of a path, made once: the same few URLs make most requests, nearly always with
  // the same method (a path asked with another method gets its text made again).
  const heads = new Map<string, { method: string; text: string }>();
  const headOf = (method: string, path: string): string => {
    let head = heads.get(path);
    if (head === undefined || head.method !== method) {
      if (heads.size >= PATH_MEMO_SIZE) heads.clear();
      heads.set(path, (head = { method, text: `,"method":"${method}","path":${JSON.stringify(path)},"status":` }));
    }
    return head.text;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    destination.write(chunk);
  };
  return {
    write(line) {
      if (!isEnabled()) return;
      const now = Date.now();
      if (now !== timeAt) {
        timeAt = now;
        timeText = timestamp();
      }
      pending += `{"level":${INFO}${timeText}${headOf(line.method, line.path)}${line.status},"duration_ms":${line.durationMs},"ip":"${line.ip}"${line.origin === undefined ? '' : `,"origin":${JSON.stringify(loggableOrigin(line.origin))}`},"msg":"request"}\n`;
      if (pending.length >= FLUSH_SIZE) flush();
      else if (!timer) timer = setTimeout(flush, FLUSH_DELAY_MS);
    },
    flush,
  };
}
