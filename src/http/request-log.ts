// The one request line of docs/forms-api.md "Logs", for every service and every path: the JSON line a pino
// call would write (`{"level":30,"time":...,"method","path","status","duration_ms","ip","msg":"request"}`, and
// `"origin"` after `"ip"` on a refused Origin),
// written in batches (at most FLUSH_DELAY_MS late, and at shutdown): a pino call and a write per request would
// cost more than everything else a rejected submission or a cached blog answer needs. Where the lines go and
// how their time reads are the logger's own (LogOutput), handed in by the composition root.
import type { LogOutput } from '../kit/log.js';

export interface RequestLine {
  /** A method Node's HTTP parser accepted: upper-case letters only, nothing to escape. */
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** An address or "unknown" (client-ip.ts): nothing to escape; '' leaves `ip` out of the line. */
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
 * reference) and the lines are made all at once when they are written, as UTF-8 into one buffer reused batch
 * after batch and handed to the output as it is. Made one by one amid the requests the lines cost a cached blog
 * answer about a tenth of its CPU, and a batch made as one string, which pino's destination then measured and
 * encoded again, some 3 % more (docs/performance.md "Runtime ratios of the blog and the rejected submission").
 */
export function createRequestLog(output: LogOutput, enabled: boolean): RequestLog {
  if (!enabled) return { write: () => undefined, flush: () => undefined };
  const { writeLines, timeAt } = output;
  const times = new Float64Array(FLUSH_LINES);
  const durations = new Float64Array(FLUSH_LINES);
  const statuses = new Uint16Array(FLUSH_LINES);
  const heads = new Array<Uint8Array>(FLUSH_LINES).fill(EMPTY);
  const ips = new Array<string>(FLUSH_LINES).fill('');
  const origins = new Array<string>(FLUSH_LINES).fill('');
  let count = 0;
  let chars = 0;
  let timer: NodeJS.Timeout | null = null;
  let bytes: Buffer = Buffer.allocUnsafe(FLUSH_CHARS + FLUSH_CHARS / 4);
  // `,"method":...,"status":` of a path as UTF-8, made once: the same few URLs make most requests, nearly always
  // with the same method (a path asked with another method gets its bytes made again).
  const headBytes = new Map<string, { method: string; bytes: Uint8Array }>();
  const headOf = (method: string, path: string): Uint8Array => {
    let head = headBytes.get(path);
    if (head === undefined || head.method !== method) {
      if (headBytes.size >= PATH_MEMO_SIZE) headBytes.clear();
      headBytes.set(path, (head = { method, bytes: Buffer.from(`,"method":"${method}","path":${JSON.stringify(path)},"status":`) }));
    }
    return head.bytes;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (count === 0) return;
    let at = 0;
    let lineTime = -1;
    let timeText = '';
    let timeStart = -1;
    let timeEnd = -1;
    for (let i = 0; i < count; i++) {
      const head = heads[i] as Uint8Array;
      const ip = ips[i] as string;
      const origin = origins[i] as string;
      if (times[i] !== lineTime) {
        lineTime = times[i] as number;
        timeText = timeAt(lineTime);
        timeStart = -1;
      }
      const longest = LINE_BYTES + head.length + 3 * (timeText.length + ip.length + origin.length);
      if (at + longest > bytes.length) bytes = grown(bytes, at, at + longest);
      at = putAscii(bytes, at, LINE_START);
      if (timeStart === -1) {
        // The first line of its millisecond; the others copy its bytes.
        timeStart = at;
        timeEnd = at = putText(bytes, at, timeText);
      } else {
        bytes.copyWithin(at, timeStart, timeEnd);
        at += timeEnd - timeStart;
      }
      bytes.set(head, at);
      at = putNumber(bytes, at + head.length, statuses[i] as number);
      at = putAscii(bytes, at, DURATION);
      at = putNumber(bytes, at, durations[i] as number);
      if (ip !== '') {
        at = putAscii(bytes, at, IP);
        at = putText(bytes, at, ip);
        bytes[at++] = QUOTE;
      }
      if (origin !== '') at = putText(bytes, at, origin);
      at = putAscii(bytes, at, LINE_END);
      heads[i] = EMPTY;
      ips[i] = origins[i] = '';
    }
    count = chars = 0;
    writeLines(bytes.subarray(0, at));
  };
  return {
    write(line) {
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

const EMPTY = new Uint8Array(0);
const LINE_START = `{"level":${INFO}`;
const DURATION = ',"duration_ms":';
const IP = ',"ip":"';
const LINE_END = ',"msg":"request"}\n';
const QUOTE = 0x22;
/** Bytes of a line besides its time, head, address and origin, at most: status, duration and names. */
const LINE_BYTES = 100;

/** A buffer of at least `size` bytes holding the first `used` bytes of `bytes`. */
function grown(bytes: Buffer, used: number, size: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.max(size, bytes.length * 2));
  bytes.copy(larger, 0, 0, used);
  return larger;
}

/** Writes `text`, known to be ASCII, at `at`; returns where it ends. */
function putAscii(bytes: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
  return at;
}

/** Writes `text` as UTF-8 at `at` (ASCII a character at a time, anything else through Buffer#write). */
function putText(bytes: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return at + bytes.write(text.slice(i), at);
    bytes[at++] = code;
  }
  return at;
}

/**
 * Writes `value` as JavaScript writes it (String(value)). A whole number or one of hundredths below 10^9 (every
 * status and duration) is written digit by digit; anything else goes through String.
 */
function putNumber(bytes: Buffer, at: number, value: number): number {
  const hundredths = Math.round(value * 100);
  if (!(value >= 0 && value < 1e9 && hundredths / 100 === value)) return putAscii(bytes, at, String(value));
  const whole = Math.floor(hundredths / 100);
  const fraction = hundredths - whole * 100;
  at = putDigits(bytes, at, whole);
  if (fraction === 0) return at;
  bytes[at++] = DOT;
  bytes[at++] = ZERO + Math.floor(fraction / 10);
  if (fraction % 10 !== 0) bytes[at++] = ZERO + (fraction % 10);
  return at;
}

const DOT = 0x2e;
const ZERO = 0x30;

/** Writes the decimal digits of a whole number `value` >= 0 at `at`. */
function putDigits(bytes: Buffer, at: number, value: number): number {
  let end = at + 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) end++;
  for (let i = end - 1, rest = value; i >= at; i--, rest = Math.floor(rest / 10)) bytes[i] = ZERO + (rest % 10);
  return end;
}
