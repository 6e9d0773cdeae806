// The batched request log writes the very line pino would, to the logger's own output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRequestLog, FLUSH_DELAY_MS, loggableOrigin, MAX_LOGGED_ORIGIN } from '../../src/http/request-log.js';
import { isoTimeAt } from '../../src/kit/log.js';
import { captureLogs } from '../support/log-capture.js';

/** A request log whose written chunks the test sees as they are written, without flushing. */
function chunkedLog() {
  const chunks: string[] = [];
  const log = createRequestLog({ writeLines: (bytes) => chunks.push(Buffer.from(bytes).toString('utf8')), timeAt: isoTimeAt }, true);
  return { log, chunks };
}

describe('request log', () => {
  it('writes the very line pino would write for the same fields', () => {
    const viaPino = captureLogs();
    viaPino.logger.info({ method: 'GET', path: '/api/blog/posts/"quoted"', status: 200, duration_ms: 0.25, ip: '::1' }, 'request');
    const direct = captureLogs();
    direct.requestLog.write({ method: 'GET', path: '/api/blog/posts/"quoted"', status: 200, durationMs: 0.25, ip: '::1' });
    const strip = (text: string) => text.replace(/"time":"[^"]*"/, '"time":"T"');
    assert.equal(strip(direct.text()), strip(viaPino.text()));
  });

  it('writes the very lines pino would for any path, status, duration, address and origin', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', 'é', '😀'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });
    const duration = fc.oneof(
      fc.integer({ min: 0, max: 2_000_000_000 }).map((hundredths) => hundredths / 100),
      fc.integer({ min: 0, max: 100_000 }).map((n) => Math.round(n / 7) / 100),
      fc.double({ min: 0, max: 1e22, noNaN: true }),
    );
    const line = fc.record({
      method: fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS'),
      path: text.map((rest) => `/${rest}`),
      status: fc.integer({ min: 100, max: 599 }),
      durationMs: duration,
      ip: fc.constantFrom('127.0.0.1', '::1', '2001:db8::1', 'unknown', '255.255.255.255'),
      origin: fc.option(text, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (lines) => {
        const viaPino = captureLogs();
        const direct = captureLogs();
        for (const { method, path, status, durationMs, ip, origin } of lines) {
          const refused = origin === undefined ? {} : { origin: loggableOrigin(origin) };
          viaPino.logger.info({ method, path, status, duration_ms: durationMs, ip, ...refused }, 'request');
          direct.requestLog.write({ method, path, status, durationMs, ip, origin });
        }
        const strip = (written: string) => written.replace(/"time":"[^"]*"/g, '"time":"T"');
        assert.equal(strip(direct.text()), strip(viaPino.text()));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a refused origin as pino would, without control characters and cut at MAX_LOGGED_ORIGIN', () => {
    const viaPino = captureLogs();
    viaPino.logger.info({ method: 'POST', path: '/contact', status: 403, duration_ms: 1, ip: '::1', origin: 'http://localhost:1313' }, 'request');
    const direct = captureLogs();
    direct.requestLog.write({ method: 'POST', path: '/contact', status: 403, durationMs: 1, ip: '::1', origin: 'http://localhost:1313' });
    const strip = (text: string) => text.replace(/"time":"[^"]*"/, '"time":"T"');
    assert.equal(strip(direct.text()), strip(viaPino.text()));

    assert.equal(loggableOrigin('https://a\u0000\u001b[31m\u007f\u0085.example"'), 'https://a[31m.example"');
    assert.equal(loggableOrigin('x'.repeat(MAX_LOGGED_ORIGIN + 50)).length, MAX_LOGGED_ORIGIN);
  });

  it('holds lines back until flushed, then writes them in one chunk', () => {
    const logs = captureLogs();
    logs.requestLog.write({ method: 'GET', path: '/a', status: 200, durationMs: 1, ip: '127.0.0.1' });
    logs.requestLog.write({ method: 'GET', path: '/b', status: 404, durationMs: 1, ip: '127.0.0.1' });
    assert.deepEqual(logs.lines().map((line) => line.path), ['/a', '/b']);
  });

  it('writes nothing when info is off', () => {
    const quiet = captureLogs('warn');
    quiet.requestLog.write({ method: 'HEAD', path: '/health', status: 200, durationMs: 0.1, ip: '127.0.0.1' });
    assert.equal(quiet.text(), '');
  });

  it('writes each line with the time it was logged, in order, across many batches', async () => {
    const logs = captureLogs();
    const windows: Array<[number, number]> = [];
    for (let i = 0; i < 5000; i++) {
      if (i % 250 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const before = Date.now();
      logs.requestLog.write({ method: 'GET', path: `/p/${i}`, status: 200 + (i % 3), durationMs: i / 100, ip: i % 2 ? '::1' : '127.0.0.1', origin: i % 7 ? undefined : `https://o${i}.example` });
      windows.push([before, Date.now()]);
    }
    const lines = logs.lines();
    assert.equal(lines.length, 5000);
    lines.forEach((line, i) => {
      assert.equal(line.path, `/p/${i}`);
      assert.equal(line.status, 200 + (i % 3));
      assert.equal(line.duration_ms, i / 100);
      assert.equal(line.ip, i % 2 ? '::1' : '127.0.0.1');
      assert.equal(line.origin, i % 7 ? undefined : `https://o${i}.example`);
      const time = Date.parse(line.time as string);
      const [before, after] = windows[i]!;
      assert.ok(time >= before && time <= after, `line ${i} at ${line.time as string}, written between ${before} and ${after}`);
    });
  });

  it('holds a few lines until FLUSH_DELAY_MS has passed, then writes them in one chunk', async () => {
    const { log, chunks } = chunkedLog();
    for (let i = 0; i < 300; i++) log.write({ method: 'GET', path: '/a', status: 200, durationMs: 1, ip: '127.0.0.1' });
    assert.equal(chunks.length, 0);
    await new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS + 10));
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.split('\n').length - 1, 300);
    log.flush();
    assert.equal(chunks.length, 1, 'nothing left to write');
  });

  it('writes a batch of 64 KiB at once, without waiting for the timer', () => {
    const { log, chunks } = chunkedLog();
    const line = { method: 'GET', path: '/a', status: 200, durationMs: 1, ip: '127.0.0.1' };
    let written = 0;
    while (chunks.length === 0 && written < 2000) (log.write(line), written++);
    assert.ok(written > 400 && written < 600, `the first chunk came after ${written} lines`);
    assert.equal(chunks[0]!.split('\n').length - 1, written);
  });

  it('writes long lines before their batch grows much past 64 KiB', () => {
    const { log, chunks } = chunkedLog();
    const path = `/${'x'.repeat(4000)}`;
    for (let i = 0; i < 100; i++) log.write({ method: 'GET', path, status: 404, durationMs: 1, ip: '127.0.0.1' });
    log.flush();
    assert.ok(chunks.length >= 6, `${chunks.length} chunks`);
    for (const chunk of chunks) assert.ok(chunk.length < 64 * 1024 + 4200, `a chunk of ${chunk.length} characters`);
    assert.equal(chunks.join('').split('\n').length - 1, 100);
  });
});
