// The body limit over a real socket: a declared oversized body is refused before it is sent (with or without
// Expect: 100-continue), a chunked one is cut off once it passes max_body_bytes
// (docs/configuration.md "[server]").
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../src/http/http-server.js';
import { contactForm, createTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { waitFor } from '../support/wait.js';

const LIMIT = 64 * 1024;

describe('max_body_bytes on a listening socket', () => {
  let forms: TestFormsService;
  let server: RunningServer;
  let port: number;
  before(async () => {
    forms = await createTestFormsService({ forms: [contactForm({ rate_limit_per_hour: 0 })], extra: { server: { max_body_bytes: LIMIT } } });
    server = await forms.app.listen();
    port = (server.server.address() as net.AddressInfo).port;
  });
  after(async () => {
    await server.close(0);
    await forms.close();
  });

  function connect() {
    const socket = net.connect(port, '127.0.0.1');
    const state = { response: '', closed: false };
    socket.on('data', (chunk: Buffer) => {
      state.response += chunk.toString('latin1');
    });
    socket.on('close', () => {
      state.closed = true;
    });
    socket.on('error', () => undefined);
    return { socket, state };
  }

  it('a Content-Length over the limit is answered 413 with the body never sent, and the connection closed', async () => {
    const { socket, state } = connect();
    socket.write(`POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"na`);
    await waitFor('the 413 answer and the close', () => (state.closed && state.response ? true : undefined), 10_000);
    assert.match(state.response, /^HTTP\/1\.1 413 /);
    assert.match(state.response, /\r\nconnection: close\r\n/i);
    assert.match(state.response, /"error":"body_too_large"/);
  });

  it('a chunked body is cut off once it passes the limit: 413, and the server stops reading', async () => {
    const { socket, state } = connect();
    socket.write('POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = Buffer.alloc(8 * 1024, 0x20);
    let sent = 0;
    while (!state.response && !state.closed && sent < 50 * 1024 * 1024) {
      const flushed = socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`);
      sent += chunk.length;
      if (!flushed) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
    await waitFor('the 413 answer', () => (state.response.includes('body_too_large') ? true : undefined), 10_000);
    assert.match(state.response, /^HTTP\/1\.1 413 /);
    assert.ok(sent < 50 * 1024 * 1024, `the answer came while the body was still being sent (${sent} bytes)`);
    socket.destroy();
  });

  it('Expect: 100-continue with a Content-Length over the limit: 413 at once, never "100 Continue"', async () => {
    const { socket, state } = connect();
    socket.write(
      `POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`,
    );
    await waitFor('the 413 answer', () => (state.response.includes('body_too_large') ? true : undefined), 10_000);
    assert.match(state.response, /^HTTP\/1\.1 413 /);
    assert.doesNotMatch(state.response, /100 Continue/);
    socket.destroy();
  });

  it('Expect: 100-continue within the limit: "100 Continue", then the body is read and judged', async () => {
    const { socket, state } = connect();
    const body = JSON.stringify({ name: 'A', email: 'not an address', message: 'short' });
    socket.write(
      `POST /contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await waitFor('the interim answer', () => (state.response.includes('\r\n\r\n') ? true : undefined), 10_000);
    assert.equal(state.response, 'HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body);
    await waitFor('the final answer', () => (state.response.includes('"error":"validation"') ? true : undefined), 10_000);
    assert.match(state.response, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
    socket.destroy();
  });

  it('the service keeps serving afterwards', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    assert.equal(response.status, 200);
  });
});
