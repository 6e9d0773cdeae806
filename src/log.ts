// pino JSON lines (contract section 1); no pid/hostname, ISO times.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** A logger writing JSON lines to `destination` (stdout by default). */
export function createLogger(destination?: DestinationStream, level = 'info'): Logger {
  const options = { base: null, level, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options);
}
