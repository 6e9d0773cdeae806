// pino JSON lines (docs/forms-api.md "Logs"): no pid or hostname, ISO times. The destination and the time
// function are chosen here and shared with the batched request log (src/http/request-log.ts).
import { writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

export type { Logger };

/** Where log lines go and how their time is written: what the logger and the request log share. */
export interface LogOutput {
  destination: { write(chunk: string): unknown };
  /**
   * Writes whole lines already made as UTF-8 (the request log's batches), in order with the destination's: the
   * bytes go out as they are, with no string made of them and measured again on the way.
   */
  writeLines(bytes: Uint8Array): void;
  /**
   * The `,"time":...` part of a line written at `ms` (milliseconds since the epoch): pino's time function asks
   * it for now, the request log for the moment of each line it writes after the fact.
   */
  timeAt: (ms: number) => string;
}

let timeSecond = Number.NaN;
let timeUpToSecond = '';

/**
 * The `"time"` of a line at `ms` (a whole number of milliseconds since the epoch, as Date.now gives): ISO 8601
 * in UTC, as pino's `stdTimeFunctions.isoTime` writes it. The text up to the second is made once a second.
 */
export function isoTimeAt(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== timeSecond) {
    timeSecond = second;
    timeUpToSecond = `,"time":"${new Date(second * 1000).toISOString().slice(0, -5)}`;
  }
  const milli = ms - second * 1000;
  return `${timeUpToSecond}${milli < 10 ? '.00' : milli < 100 ? '.0' : '.'}${milli}Z"`;
}

/** Standard output, written synchronously (a line is out before the process may end), with ISO times. */
export function createStdoutLogOutput(): LogOutput {
  return { destination: pino.destination({ fd: 1, sync: true }), writeLines: (bytes) => writeWhollySync(1, bytes), timeAt: isoTimeAt };
}

/**
 * Writes all of `bytes` to `fd` before it returns, as pino's synchronous destination writes a line: a full pipe
 * (EAGAIN) is waited for. Any other failure drops the bytes: there is nowhere else to write them to.
 */
function writeWhollySync(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(PAUSE, 0, 0, FULL_PIPE_WAIT_MS);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
const FULL_PIPE_WAIT_MS = 10;

/** A logger writing JSON lines to `output` at `level` (default info). */
export function createLogger(output: LogOutput, level = 'info'): Logger {
  return pino({ base: null, level, timestamp: () => output.timeAt(Date.now()) }, output.destination);
}

/** A logger that writes nothing: for a command, whose output is its own. */
export function createSilentLogger(): Logger {
  return createLogger({ destination: { write: () => undefined }, writeLines: () => undefined, timeAt: () => '' }, 'silent');
}
