// pino JSON lines (docs/forms-api.md "Logs"): no pid or hostname, ISO times. Where lines go and how their time
// reads are chosen here and shared with the batched request log (src/http/request-log.ts).
import { writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

export type { Logger };

/** Where log lines go and how their time is written: what the logger and the request log share. */
export interface LogOutput {
  /**
   * Writes whole lines made as UTF-8, the logger's one at a time and the request log's in batches, in the order
   * they come; it never throws (a log that cannot be written must not stop a request or the service).
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
  let failing = false;
  return {
    writeLines: (bytes) => {
      const failure = writeWhollySync(1, bytes);
      // Said once on stderr when writing starts to fail (a full disk, a closed pipe), not once per line.
      if (failure && !failing) writeQuietly(2, `postbox: log lines cannot be written to stdout (${failure}); they are dropped until it works again\n`);
      failing = failure !== undefined;
    },
    timeAt: isoTimeAt,
  };
}

/**
 * Writes all of `bytes` to `fd` before it returns: a full pipe (EAGAIN) is waited for, as pino's synchronous
 * destination does. Any other failure drops the bytes and is returned (its code): there is nowhere else to write
 * them to.
 */
function writeWhollySync(fd: number, bytes: Uint8Array): string | undefined {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      if (code !== 'EAGAIN') return code;
      Atomics.wait(PAUSE, 0, 0, FULL_PIPE_WAIT_MS);
    }
  }
  return undefined;
}

function writeQuietly(fd: number, text: string): void {
  try {
    writeSync(fd, text);
  } catch {
    // stderr is gone too
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
const FULL_PIPE_WAIT_MS = 10;

/** A logger writing JSON lines to `output` at `level` (default info). */
export function createLogger(output: LogOutput, level = 'info'): Logger {
  const destination = { write: (line: string) => output.writeLines(Buffer.from(line, 'utf8')) };
  return pino({ base: null, level, timestamp: () => output.timeAt(Date.now()) }, destination);
}

/** A logger that writes nothing: for a command, whose output is its own. */
export function createSilentLogger(): Logger {
  return createLogger({ writeLines: () => undefined, timeAt: () => '' }, 'silent');
}
