// The shared HTTP factory: time-outs, the error mapper, not-found and 405 answers.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { createHttpApp, REQUEST_READ_TIMEOUT_MS, RESPONSE_WRITE_TIMEOUT_MS } from '../../src/http/app.js';
import { INTERNAL_ERROR_BODY } from '../../src/http/error-handler.js';
import { contactForm, createTestFormsService } from '../support/forms-app.js';
import { captureLogs } from '../support/log-capture.js';
import { waitFor } from '../support/wait.js';

describe('createHttpApp', () => {
  it('defaults to a 15 s read time-out (checked every second) and a 30 s write time-out', async () => {
    const app = createHttpApp({ logger: captureLogs().logger });
    await app.ready();
    assert.equal(REQUEST_READ_TIMEOUT_MS, 15_000);
    assert.equal(RESPONSE_WRITE_TIMEOUT_MS, 30_000);
    assert.equal(app.server.requestTimeout, 15_000);
    assert.equal(app.server.headersTimeout, 15_000);
    assert.equal(app.server.timeout, 30_000);
    await app.close();
  });

  it('an unexpected error is a logged 500 whose body says nothing internal', async () => {
    const logs = captureLogs();
    const app = createHttpApp({ logger: logs.logger });
    app.get('/boom', async () => {
      throw new Error('connection string postgres://admin:hunter2@db');
    });
    const response = await app.inject({ method: 'GET', url: '/boom?x=1' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), INTERNAL_ERROR_BODY);
    assert.doesNotMatch(response.body, /hunter2|postgres/);
    const line = logs.lines().find((entry) => entry.event === 'internal_error');
    assert.equal(line?.path, '/boom');
    assert.equal(line?.level, 50);
    await app.close();
  });

  it('client errors raised by Fastify keep their status with a generic body', async () => {
    const app = createHttpApp({ logger: captureLogs().logger });
    app.post('/json', async (request) => request.body);
    const response = await app.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'application/json' }, payload: '{"secret": nope' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(Object.keys(response.json()).sort(), ['error', 'message']);
    assert.equal(response.json().error, 'bad_request');
    assert.doesNotMatch(response.body, /secret|nope/);
    await app.close();
  });

  it('unknown paths are 404 {"error":"not_found"}; paths named by allowedMethods are 405 with Allow', async () => {
    const app = createHttpApp({ logger: captureLogs().logger, allowedMethods: (path) => (path === '/thing' ? ['GET', 'HEAD'] : undefined) });
    app.get('/thing', async () => ({ ok: true }));
    const missing = await app.inject({ method: 'GET', url: '/other' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { error: 'not_found' });
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/thing?x=1' });
    assert.equal(wrongMethod.statusCode, 405);
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
    assert.equal(wrongMethod.body, '');
    await app.close();
  });
});

describe('read time-out on a real socket', () => {
  it('a client sending its body slowly is cut off once the read time-out has passed', async () => {
    const timeoutMs = 1_000;
    const forms = await createTestFormsService({ forms: [contactForm({ rate_limit_per_hour: 0 })], deps: { requestTimeoutMs: timeoutMs } });
    try {
      await forms.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = forms.app.server.address() as net.AddressInfo;
      assert.equal(forms.app.server.requestTimeout, timeoutMs);
      const socket = net.connect(port, '127.0.0.1');
      const state = { response: '', closedAt: 0 };
      socket.on('data', (chunk: Buffer) => {
        state.response += chunk.toString('latin1');
      });
      socket.on('close', () => {
        state.closedAt = Date.now();
      });
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      const startedAt = Date.now();
      socket.write('POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":');
      // Keep trickling a byte now and then, as a slow client would, until the server gives up.
      const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
      try {
        await waitFor('the server to cut the slow request off', () => (state.closedAt ? true : undefined), 15_000);
      } finally {
        clearInterval(trickle);
      }
      const elapsed = state.closedAt - startedAt;
      assert.ok(elapsed >= timeoutMs * 0.9, `cut off after ${elapsed} ms, not before the time-out`);
      assert.match(state.response, /^HTTP\/1\.1 408 /);
      assert.equal(forms.mailer.sent.length, 0);
    } finally {
      await forms.close();
    }
  });
});
