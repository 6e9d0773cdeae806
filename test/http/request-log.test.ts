// The batched request log writes the very line pino would, to the logger's own destination.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loggableOrigin, MAX_LOGGED_ORIGIN } from '../../src/http/request-log.js';
import { captureLogs } from '../support/log-capture.js';

describe('request log', () => {
  it('writes the very line pino would write for the same fields', () => {
    const viaPino = captureLogs();
    viaPino.logger.info({ method: 'GET', path: '/api/blog/posts/"quoted"', status: 200, duration_ms: 0.25, ip: '::1' }, 'request');
    const direct = captureLogs();
    direct.requestLog.write({ method: 'GET', path: '/api/blog/posts/"quoted"', status: 200, durationMs: 0.25, ip: '::1' });
    const strip = (text: string) => text.replace(/"time":"[^"]*"/, '"time":"T"');
    assert.equal(strip(direct.text()), strip(viaPino.text()));
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
});
