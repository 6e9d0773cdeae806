// The one request line of docs/forms-api.md "Logs", for every service and every path: the JSON line a pino
// call would write (`{"level":30,"time":...,"method","path","status","duration_ms","ip","msg":"request"}`, and
// `"origin"` after `"ip"` on a refused Origin),
// written to the log's destination in batches (at most FLUSH_DELAY_MS late, and at shutdown): a pino call and
// a write per request would cost more than everything else a rejected submission or a cached blog answer needs.
// The destination and the time format are the logger's own, handed in by the composition root.
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

/** Longest time a line waits before it is written. */
export const FLUSH_DELAY_MS = 20;
/** About the characters held at most before the lines are written at once. */
const FLUSH_CHARS = 64 * 1024;
/** Characters of a line besides its method and path text, address and origin (time, status, duration, names). */
const LINE_CHARS = 100;
/** Room for lines: more than FLUSH_CHARS holds of the shortest (path "/", address "::1"). */
const FLUSH_LINES = 1024;
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

/**
 * A request log on `output`; `enabled` tells whether info lines are wanted (the logger's level, set when the
 * logger is made and never changed). A request keeps its facts in columns (numbers in typed arrays, strings by
 * reference) and the lines are made all at once when they are written: made one by one amid the requests, they
 * cost a cached blog answer about a tenth of its CPU (docs/performance.md "Runtime ratios of the blog and the
 * rejected submission").
 */
export function createRequestLog(output: LogOutput, enabled: boolean): RequestLog {
  const { destination, timeAt } = output;
  const times = new Float64Array(FLUSH_LINES);
  const durations = new Float64Array(FLUSH_LINES);
  const statuses = new Uint16Array(FLUSH_LINES);
  const heads = new Array<string>(FLUSH_LINES).fill('');
  const ips = new Array<string>(FLUSH_LINES).fill('');
  const origins = new Array<string>(FLUSH_LINES).fill('');
  let count = 0;
  let chars = 0;
  let timer: NodeJS.Timeout | null = null;
  // `,"method":...,"status":` of a path, made once: the same few URLs make most requests, nearly always with
  // the same method (a path asked with another method gets its text made again).
  const headTexts = new Map<string, { method: string; text: string }>();
  const headOf = (method: string, path: string): string => {
    let head = headTexts.get(path);
    if (head === undefined || head.method !== method) {
      if (headTexts.size >= PATH_MEMO_SIZE) headTexts.clear();
      headTexts.set(path, (head = { method, text: `,"method":"${method}","path":${JSON.stringify(path)},"status":` }));
    }
    return head.text;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (count === 0) return;
    let chunk = '';
    let lineTime = -1;
    let timeText = '';
    for (let i = 0; i < count; i++) {
      if (times[i] !== lineTime) {
        lineTime = times[i] as number;
        timeText = timeAt(lineTime);
      }
      chunk += `{"level":${INFO}${timeText}${heads[i]}${statuses[i]},"duration_ms":${durations[i]},"ip":"${ips[i]}"${origins[i]},"msg":"request"}\n`;
      heads[i] = ips[i] = origins[i] = '';
    }
    count = chars = 0;
    destination.write(chunk);
  };
  return {
    write(line) {
      if (!enabled) return;
      const i = count++;
      const head = headOf(line.method, line.path);
      const origin = line.origin === undefined ? '' : `,"origin":${JSON.stringify(loggableOrigin(line.origin))}`;
      times[i] = Date.now();
      durations[i] = line.durationMs;
      statuses[i] = line.status;
      heads[i] = head;
      ips[i] = line.ip;
      origins[i] = origin;
      chars += LINE_CHARS + head.length + line.ip.length + origin.length;
      if (count === FLUSH_LINES || chars >= FLUSH_CHARS) flush();
      else if (!timer) timer = setTimeout(flush, FLUSH_DELAY_MS);
    },
    flush,
  };
}
