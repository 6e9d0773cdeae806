// The log output: the time of a line, written by postbox itself for the logger and the request log alike, and
// standard output, where both write their lines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { isoTimeAt } from '../../src/kit/log.js';

describe('isoTimeAt', () => {
  it('writes what pino\'s isoTime writes for the same moment, whatever came before', () => {
    // Moments from 1970 to 2100, often within the same second as the one before (the cached part).
    const moment = fc.integer({ min: 0, max: 4_102_444_800_000 });
    fc.assert(
      fc.property(fc.array(fc.tuple(moment, fc.integer({ min: -999, max: 999 })), { minLength: 1, maxLength: 20 }), (moments) => {
        for (const [base, step] of moments) {
          for (const ms of [base, Math.max(0, base + step)]) assert.equal(isoTimeAt(ms), `,"time":"${new Date(ms).toISOString()}"`);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('standard output', () => {
  it('takes every line of the logger and the request log, whole and each in order, from a reader that falls behind', async () => {
    // A child process writes 20,000 request lines (up to some 300 bytes each) and a logger line every 5,000 into a
    // pipe nobody reads for a while: far more than the pipe holds, so writes wait for the reader.
    const program = `
      import { createRequestLog } from './src/http/request-log.ts';
      import { createLogger, createStdoutLogOutput } from './src/kit/log.ts';
      // Touching process.stdout makes Node set the pipe non-blocking, as in a service: a full pipe then fails a
      // write with EAGAIN instead of blocking it, and that is what the output must wait out.
      process.stdout;
      const output = createStdoutLogOutput();
      const logger = createLogger(output);
      const log = createRequestLog(output, true);
      for (let i = 0; i < 20000; i++) {
        if (i % 5000 === 0) logger.info({ event: 'mark', i }, 'mark');
        log.write({ method: 'GET', path: '/p/' + i + '/' + 'x'.repeat(i % 200), status: 200, durationMs: 0.5, ip: '127.0.0.1' });
      }
      log.flush();`;
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (text += chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    assert.equal(code, 0);
    const lines = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === 'request');
    assert.equal(requests.length, 20000);
    requests.forEach((line, i) => assert.equal(line.path, `/p/${i}/${'x'.repeat(i % 200)}`));
    // The logger's lines go out at once, between batches of request lines (which wait up to a batch).
    assert.deepEqual(lines.filter((line) => line.event === 'mark').map((line) => line.i), [0, 5000, 10000, 15000]);
  });
});
