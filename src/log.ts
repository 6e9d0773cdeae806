// pino JSON lines (docs/forms-api.md "Logs"): no pid or hostname, ISO times. The destination and the time
// function are chosen here and shared with the batched request log (src/http/request-log.ts).
import { pino, type Logger } from 'pino';

export type { Logger };

/** Where log lines go and how their time is written: what the logger and the request log share. */
export interface LogOutput {
  destination: { write(chunk: string): unknown };
  /** pino's time function: returns `,"time":"<ISO time>"` for now. */
  timestamp: () => string;
  /** The same for a moment (milliseconds since the epoch): the request log writes its lines after the fact. */
  timeAt: (ms: number) => string;
}

/** The `"time"` of a line: ISO 8601 in UTC, as pino's `stdTimeFunctions.isoTime` writes it. */
export const isoTimeAt = (ms: number): string => `,"time":"${new Date(ms).toISOString()}"`;

/** Standard output, written synchronously (a line is out before the process may end), with ISO times. */
export function createStdoutLogOutput(): LogOutput {
  return { destination: pino.destination({ fd: 1, sync: true }), timestamp: () => isoTimeAt(Date.now()), timeAt: isoTimeAt };
}

/** A logger writing JSON lines to `output` at `level` (default info). */
export function createLogger(output: LogOutput, level = 'info'): Logger {
  return pino({ base: null, level, timestamp: output.timestamp }, output.destination);
}

/** A logger that writes nothing: for a command, whose output is its own. */
export function createSilentLogger(): Logger {
  return createLogger({ destination: { write: () => undefined }, timestamp: () => '', timeAt: () => '' }, 'silent');
}
