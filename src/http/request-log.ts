// The one request line of forms-service.md, for every service and every path (Fastify's onResponse hook
// and the fast paths in front of it): the JSON line a pino call would write
// (`{"level":30,"time":...,"method","path","status","duration_ms","ip","msg":"request"}`), built from the
// logger's own level prefix, time function and bindings, and written to the logger's own destination in
// batches (at most FLUSH_DELAY_MS late, and at shutdown): a pino call and a write per request would cost
// more than everything else a rejected submission or a prepared blog answer needs.
import { pino } from 'pino';
import type { Logger } from '../log.js';

export interface RequestLine {
  /** A method Node's HTTP parser accepted: upper-case letters only, nothing to escape. */
  method: string;
  path: string;
  status: number;
  durationMs: number;
  ip: string;
}

export interface RequestLog {
  write(line: RequestLine): void;
  /** Writes what is pending now (at shutdown). */
  flush(): void;
}

interface PinoInternals {
  [pino.symbols.lsCacheSym]?: Record<number, string>;
  [pino.symbols.timeSym]?: () => string;
  [pino.symbols.chindingsSym]?: string;
  [pino.symbols.streamSym]?: { write(chunk: string): unknown };
  [pino.symbols.messageKeySym]?: string;
}

/** Longest time a line waits before it is written, and the batch size that is written at once. */
export const FLUSH_DELAY_MS = 20;
const FLUSH_SIZE = 64 * 1024;
/** Paths whose JSON form is remembered (the same few URLs make most requests). */
const PATH_MEMO_SIZE = 1000;

/** A request log on `logger`'s destination; falls back to `logger.info` for a logger without pino internals. */
export function createRequestLog(logger: Logger): RequestLog {
  const internals = logger as unknown as PinoInternals;
  const level = logger.levels.values.info ?? 30;
  const prefix = internals[pino.symbols.lsCacheSym]?.[level];
  const time = internals[pino.symbols.timeSym];
  const stream = internals[pino.symbols.streamSym];
  const messageKey = internals[pino.symbols.messageKeySym] ?? 'msg';
  if (prefix === undefined || time === undefined || stream === undefined) return createPlainRequestLog(logger);
  const bindings = internals[pino.symbols.chindingsSym] ?? '';
  const suffix = `,${JSON.stringify(messageKey)}:"request"}\n`;

  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let timeAt = -1;
  let timeText = '';
  const paths = new Map<string, string>();
  const jsonPath = (path: string): string => {
    let json = paths.get(path);
    if (json === undefined) {
      if (paths.size >= PATH_MEMO_SIZE) paths.clear();
      paths.set(path, (json = JSON.stringify(path)));
    }
    return json;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    stream.write(chunk);
  };
  return {
    write(line) {
      if (!logger.isLevelEnabled('info')) return;
      const now = Date.now();
      if (now !== timeAt) {
        timeAt = now;
        timeText = time();
      }
      // method (parsed by Node: upper-case letters) and ip (an address or "unknown", see client-ip.ts) need no
      // escaping.
      pending += `${prefix}${timeText}${bindings},"method":"${line.method}","path":${jsonPath(line.path)},"status":${line.status},"duration_ms":${line.durationMs},"ip":"${line.ip}"${suffix}`;
      if (pending.length >= FLUSH_SIZE) flush();
      else if (!timer) timer = setTimeout(flush, FLUSH_DELAY_MS);
    },
    flush,
  };
}

function createPlainRequestLog(logger: Logger): RequestLog {
  return {
    write: (line) =>
      logger.info({ method: line.method, path: line.path, status: line.status, duration_ms: line.durationMs, ip: line.ip }, 'request'),
    flush: () => undefined,
  };
}
