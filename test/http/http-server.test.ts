// The socket side of a service: time-outs, Node's own parse errors answered in the error catalogue's shape (with
// the service's common headers), and a graceful close that ends keep-alive for requests that arrive meanwhile.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import type { Answer } from '../../src/http/answer.js';
import { bindHttp, listenHttp, ListenError, REQUEST_READ_TIMEOUT_MS, CONNECTION_IDLE_TIMEOUT_MS } from '../../src/http/http-server.js';
import type { RequestListener } from '../../src/http/front-door.js';
import { writeAnswer } from '../../src/http/answer.js';
import { contactForm, createTestFormsService } from '../support/forms-app.js';
import { waitFor } from '../support/wait.js';

const hello: Answer = { status: 200, headers: ['content-type', 'text/plain', 'content-length', '5'], body: 'hello' };
const answerHello: RequestListener = (_request, response) => writeAnswer(response, hello, true);
const LOCAL = { host: '127.0.0.1', port: 0 };

/** When the first connection the server accepts from now on is closed (by either side). */
function serverSocketClosed(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.once('connection', (socket: net.Socket) => socket.once('close', () => resolve(Date.now()))));
}

/** Counts the answers (status lines) that arrive on `socket`, each answer short enough to come whole. */
function countAnswers(socket: net.Socket): { count: number; text: string } {
  const seen = { count: 0, text: '' };
  socket.on('data', (chunk: Buffer) => {
    seen.text += chunk.toString('latin1');
    seen.count = seen.text.split('HTTP/1.1 ').length - 1;
  });
  return seen;
}

/**
 * Sends `text` on a new connection, then with `shutDown` ends the client's sending side (FIN); resolves with what
 * came back once the server closed the connection.
 */
function exchange(port: number, text: string, shutDown = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    if (shutDown) socket.end(text);
    else socket.write(text);
  });
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('listenHttp', () => {
  it('defaults to a 15 s read time-out (checked every second) and a 30 s idle time-out, with no keep-alive time-out of its own', async () => {
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0 });
    try {
      assert.equal(REQUEST_READ_TIMEOUT_MS, 15_000);
      assert.equal(CONNECTION_IDLE_TIMEOUT_MS, 30_000);
      assert.equal(running.server.requestTimeout, 15_000);
      assert.equal(running.server.headersTimeout, 15_000);
      // The idle time-out is kept by a sweep, not by a socket timer pushed back on every read and write.
      assert.equal(running.server.timeout, 0);
      assert.equal(running.server.keepAliveTimeout, 0);
    } finally {
      await running.close(0);
    }
  });

  it('keeps a connection between requests until it has been idle for the idle time-out, then closes it', async () => {
    const idleTimeoutMs = 1000;
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0, idleTimeoutMs });
    const closedAt = serverSocketClosed(running.server);
    try {
      const socket = net.connect(Number(new URL(running.address).port), '127.0.0.1');
      socket.on('error', () => undefined);
      const answers = countAnswers(socket);
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await waitFor('the first answer', () => (answers.count === 1 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, idleTimeoutMs / 2));
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await waitFor('the second answer', () => (answers.count === 2 ? true : undefined));
      const lastAnswer = Date.now();
      assert.doesNotMatch(answers.text, /keep-alive: timeout/i);
      const idle = (await closedAt) - lastAnswer;
      // Node's own keep-alive time-out would have closed it 5 s after the answer.
      assert.ok(idle >= idleTimeoutMs * 0.8 && idle < 4000, `closed ${idle} ms after the last answer`);
      socket.destroy();
    } finally {
      await running.close(0);
    }
  });

  it('keeps a connection that is slow but never still for the idle time-out', async () => {
    const idleTimeoutMs = 2000;
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0, idleTimeoutMs });
    try {
      const socket = net.connect(Number(new URL(running.address).port), '127.0.0.1');
      socket.on('error', () => undefined);
      let closed = false;
      socket.on('close', () => (closed = true));
      const answers = countAnswers(socket);
      // Ten pieces of one request, 300 ms apart: 3 s in all, never more than 0.3 s without a byte (a stall of the
      // event loop of up to 1.7 s still leaves the connection short of 2 s idle).
      const pieces = ['GET / HTTP/1.1\r\n', 'Host: x\r\n', ...'ABCDEFGH'.split('').map((name) => `X-${name}: 1\r\n`)];
      for (const piece of pieces) {
        assert.equal(closed, false, 'the connection was closed while the request was arriving');
        socket.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      socket.write('\r\n');
      await waitFor('the answer', () => (answers.count === 1 ? true : undefined));
      assert.match(answers.text, /^HTTP\/1\.1 200 /);
      socket.destroy();
    } finally {
      await running.close(0);
    }
  });

  it('closes a connection whose client stops reading its answer for the idle time-out', async () => {
    const idleTimeoutMs = 1000;
    const big: Answer = { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(32 * 1024 * 1024, 97) };
    const running = await listenHttp((_request, response) => writeAnswer(response, big, true), LOCAL, { maxBodyBytes: 0, idleTimeoutMs });
    const closedAt = serverSocketClosed(running.server);
    try {
      const socket = net.connect(Number(new URL(running.address).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.pause(); // reads nothing: the answer fills the buffers and stalls
      const asked = Date.now();
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      const stalled = (await closedAt) - asked;
      assert.ok(stalled >= idleTimeoutMs * 0.8 && stalled < 10_000, `closed ${stalled} ms after the request`);
      socket.destroy();
    } finally {
      await running.close(0);
    }
  });

  it('answers a request Node cannot parse with 400 in the catalogue shape and the common headers', async () => {
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0, commonHeaders: { 'access-control-allow-origin': '*' } });
    try {
      const raw = await exchange(Number(new URL(running.address).port), 'NOT HTTP AT ALL\r\n\r\n');
      assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(raw, /\r\naccess-control-allow-origin: \*\r\n/i);
      assert.deepEqual(bodyOf(raw), { error: 'bad_request', message: 'The request could not be read.' });
    } finally {
      await running.close(0);
    }
  });

  it('answers headers over Node\'s limit with 431 in the catalogue shape', async () => {
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0 });
    try {
      const raw = await exchange(Number(new URL(running.address).port), `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.match(raw, /^HTTP\/1\.1 431 /);
      assert.equal((bodyOf(raw) as { error: string }).error, 'headers_too_large');
    } finally {
      await running.close(0);
    }
  });

  it('lets a request in flight finish while it closes, then closes its connection without waiting for keep-alive', async () => {
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const slow: RequestListener = (_request, response) => {
      release = () => writeAnswer(response, { status: 200, headers: { 'content-type': 'text/plain' }, body: 'late' }, true);
      arrived();
    };
    const running = await listenHttp(slow, LOCAL, { maxBodyBytes: 0 });
    const answered = exchange(Number(new URL(running.address).port), 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrival;
    const startedClosing = Date.now();
    const closed = running.close(10_000);
    release();
    const raw = await answered;
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.ok(raw.endsWith('late'));
    await closed;
    // The idle time-out is 30 s and the grace 10 s: the connection was closed as soon as it was idle.
    assert.ok(Date.now() - startedClosing < 4000, `closed after ${Date.now() - startedClosing} ms`);
  });
});

describe('a client that shuts down its sending side after its requests', () => {
  const answerLater: RequestListener = (request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => writeAnswer(response, hello, true), 30));
  };

  it('gets the answer its request is owed, written after the FIN arrived', async () => {
    const running = await listenHttp(answerLater, LOCAL, { maxBodyBytes: 100 });
    try {
      const raw = await exchange(Number(new URL(running.address).port), 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab', true);
      assert.match(raw, /^HTTP\/1\.1 200 /);
      assert.ok(raw.endsWith('hello'));
    } finally {
      await running.close(0);
    }
  });

  it('gets an answer to each of its pipelined requests', async () => {
    const running = await listenHttp(answerLater, LOCAL, { maxBodyBytes: 100 });
    try {
      const raw = await exchange(Number(new URL(running.address).port), 'GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n', true);
      assert.equal(raw.split('HTTP/1.1 200 ').length - 1, 2);
    } finally {
      await running.close(0);
    }
  });
});

describe('bindHttp', () => {
  it('listens before the service exists and answers what arrived meanwhile once it is served', async () => {
    const bound = await bindHttp(LOCAL);
    try {
      const early = fetch(`${bound.address}/`);
      const port = Number(new URL(bound.address).port);
      const continued = exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      bound.serve(answerHello, { maxBodyBytes: 100 });
      const response = await early;
      assert.equal(response.status, 200);
      assert.equal(await response.text(), 'hello');
      // The 100-continue decision waited for the service's own body limit too.
      assert.match(await continued, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    } finally {
      await bound.close(0);
    }
  });

  it('refuses an address in use with one line naming it', async () => {
    const holder = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0 });
    try {
      const port = Number(new URL(holder.address).port);
      const refusal = await bindHttp({ host: '127.0.0.1', port }).catch((error: unknown) => error);
      assert.ok(refusal instanceof ListenError);
      assert.equal(refusal.message, `cannot listen on 127.0.0.1:${port}: address already in use`);
      assert.equal(refusal.code, 'EADDRINUSE');
    } finally {
      await holder.close(0);
    }
  });

  it('writes an IPv6 host in brackets', () => {
    const error = new ListenError({ host: '::1', port: 80 }, Object.assign(new Error('listen EACCES'), { code: 'EACCES' }));
    assert.equal(error.message, 'cannot listen on [::1]:80: permission denied (ports below 1024 need privileges)');
  });
});

describe('read time-out on a real socket', () => {
  it('a client that never finishes its headers gets 408 in the catalogue shape, with the common headers', async () => {
    const timeoutMs = 1_000;
    const running = await listenHttp(answerHello, LOCAL, { maxBodyBytes: 0, requestTimeoutMs: timeoutMs, commonHeaders: { 'access-control-allow-origin': '*' } });
    try {
      const raw = await exchange(Number(new URL(running.address).port), 'GET /api/blog/posts HTTP/1.1\r\nHost: x\r\n');
      assert.match(raw, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(raw, /\r\naccess-control-allow-origin: \*\r\n/);
      assert.deepEqual(bodyOf(raw), { error: 'request_timeout', message: 'The request did not arrive in time.' });
    } finally {
      await running.close(0);
    }
  });

  it('a client sending its body slowly is cut off after the read time-out with 408 in the catalogue shape', async () => {
    const timeoutMs = 1_000;
    const forms = await createTestFormsService({ forms: [contactForm({ rate_limit_per_hour: 0 })] });
    const running = await forms.app.listen({ requestTimeoutMs: timeoutMs });
    try {
      assert.equal(running.server.requestTimeout, timeoutMs);
      const socket = net.connect(Number(new URL(running.address).port), '127.0.0.1');
      const state = { response: '', closedAt: 0 };
      socket.on('data', (chunk: Buffer) => (state.response += chunk.toString('latin1')));
      socket.on('close', () => (state.closedAt = Date.now()));
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
      assert.ok(state.closedAt - startedAt >= timeoutMs * 0.9, 'not cut off before the time-out');
      assert.match(state.response, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(state.response, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      assert.deepEqual(bodyOf(state.response), { error: 'request_timeout', message: 'The request did not arrive in time.' });
      assert.equal(forms.mailer.sent.length, 0);
    } finally {
      await running.close(0);
      await forms.close();
    }
  });
});
