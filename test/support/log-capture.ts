// A real pino logger (src/log.ts) writing into memory, so tests read the JSON lines as objects.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';

export type LogLine = Record<string, unknown>;

export interface LogCapture {
  logger: Logger;
  /** Every line written so far, parsed. */
  lines(): LogLine[];
  /** Every line as it was written, for "this text appears nowhere" checks. */
  text(): string;
}

/** A logger at `level` (default "info") whose output the test can inspect. */
export function captureLogs(level = 'info'): LogCapture {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger(sink, level);
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as LogLine),
  };
}

/** `capture` whose readers first write the lines `flush` holds back (request lines are written in batches). */
export function flushedFirst(capture: LogCapture, flush: () => void): LogCapture {
  return {
    logger: capture.logger,
    lines: () => (flush(), capture.lines()),
    text: () => (flush(), capture.text()),
  };
}
