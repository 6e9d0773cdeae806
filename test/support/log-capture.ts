// A real pino logger (src/kit/log.ts) and request log writing into memory, so tests read the JSON lines as objects.
import { createRequestLog, type RequestLog } from '../../src/http/request-log.js';
import { createLogger, isoTimeAt, type Logger, type LogOutput } from '../../src/kit/log.js';

export type LogLine = Record<string, unknown>;

export interface LogCapture {
  logger: Logger;
  /** The batched request lines, written to the same place; the readers below flush it first. */
  requestLog: RequestLog;
  /** Every line written so far, parsed. */
  lines(): LogLine[];
  /** Every line as it was written, for "this text appears nowhere" checks. */
  text(): string;
}

/** A logger at `level` (default "info") whose output the test can inspect. */
export function captureLogs(level = 'info'): LogCapture {
  const chunks: string[] = [];
  const output: LogOutput = {
    writeLines: (bytes: Uint8Array) => chunks.push(Buffer.from(bytes).toString('utf8')),
    timeAt: isoTimeAt,
  };
  const logger = createLogger(output, level);
  const requestLog = createRequestLog(output, logger.isLevelEnabled('info'));
  const text = () => (requestLog.flush(), chunks.join(''));
  return {
    logger,
    requestLog,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as LogLine),
  };
}
