// The front door: routing from the table (404, 405 with Allow), the decoded path, and the error boundary that
// turns every throw, rejection or refused header into the catalogue's 500 and one error line, never a crash.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Answer } from '../../src/http/answer.js';
import { errorAnswer, ERROR_CATALOGUE } from '../../src/http/error-catalogue.js';
import { createFrontDoor, type DoorAnswers } from '../../src/http/front-door.js';
import type { Route } from '../../src/http/route-table.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';

const answers: DoorAnswers = {
  notFound: () => errorAnswer('not_found'),
  badPath: () => errorAnswer('bad_request'),
  methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }),
  internalError: () => errorAnswer('internal_error'),
};

const ok = (body: string): Answer => ({ status: 200, headers: { 'content-type': 'text/plain' }, body });

function doorFor(routes: Route[]) {
  const logs = captureLogs();
  const handle = createFrontDoor({ routes, answers, clientAddressOf: () => '192.0.2.1', requestLog: logs.requestLog, logger: logs.logger });
  return { logs, app: driveService({ handle, serverSettings: { maxBodyBytes: 0 } }) };
}

const SECRET = 'postgres://admin:hunter2@db';

describe('front door routing', () => {
  const { app } = doorFor([
    { path: '/thing', methods: { GET: () => ok('thing'), HEAD: () => ok('thing'), DELETE: () => ok('gone') } },
    { path: '/files/', prefix: true, methods: { GET: (request) => ok(`file ${request.path}`) } },
    { path: '/files/special/', prefix: true, methods: { GET: () => ok('special') } },
    { path: '/any/', prefix: true, methods: { OPTIONS: () => ok('preflight'), '*': () => errorAnswer('not_found') } },
  ]);

  it('answers 404 {"error":"not_found"} for paths no route has', async () => {
    const response = await app.inject({ method: 'GET', url: '/nothing?x=1' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'not_found' });
  });

  it('answers 405 with Allow derived from the table, in its order', async () => {
    const response = await app.inject({ method: 'PUT', url: '/thing' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, HEAD, DELETE');
  });

  it('matches the longest prefix, on the decoded path; "*" answers any other method', async () => {
    assert.equal((await app.inject('/files/a%20b')).body, 'file /files/a b');
    assert.equal((await app.inject('/files/special/x')).body, 'special');
    assert.equal((await app.inject('/th%69ng')).body, 'thing');
    assert.equal((await app.inject({ method: 'OPTIONS', url: '/any/x' })).body, 'preflight');
    assert.equal((await app.inject({ method: 'POST', url: '/any/x' })).statusCode, 404);
  });

  it('answers a malformed percent-encoding with 400, without echoing it', async () => {
    const response = await app.inject('/files/%E0%A4%A');
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, 'bad_request');
    assert.doesNotMatch(response.body, /E0|A4/);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/thing' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-length'], '5');
    assert.equal(response.body, '');
  });
});

describe('front door error boundary', () => {
  const failures: Array<[string, Route['methods'][string]]> = [
    ['a route that throws', () => {
      throw new Error(SECRET);
    }],
    ['a route that rejects', async () => {
      throw Object.assign(new Error(SECRET), { code: 'ECONNREFUSED' });
    }],
    ['a header Node refuses (a Location with raw Unicode)', () => ({ status: 303, headers: { location: 'https://example.com/спасибо' } })],
    ['a header value with CR LF', () => ({ status: 200, headers: { 'x-note': 'a\r\nSet-Cookie: evil=1' }, body: 'x' })],
    ['a status Node refuses', () => ({ status: 1000, headers: {}, body: 'x' })],
  ];
  for (const [what, handler] of failures) {
    it(`${what}: 500 in the catalogue's shape, one error line without the message, and the door keeps serving`, async () => {
      const { app, logs } = doorFor([
        { path: '/boom', methods: { POST: handler! } },
        { path: '/fine', methods: { GET: () => ok('fine') } },
      ]);
      const response = await app.inject({ method: 'POST', url: '/boom?token=abc' });
      assert.equal(response.statusCode, 500);
      assert.deepEqual(response.json(), { error: 'internal_error', message: ERROR_CATALOGUE.internal_error.message });
      assert.equal(response.headers['x-note'], undefined);
      assert.doesNotMatch(logs.text(), /hunter2|спасибо|evil|token=abc/);
      const errors = logs.lines().filter((line) => line.level === 50);
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.event, 'internal_error');
      assert.equal(errors[0]!.path, '/boom');
      assert.equal(typeof errors[0]!.reason, 'string');
      const request = logs.lines().find((line) => line.msg === 'request' && line.path === '/boom');
      assert.equal(request?.status, 500);
      assert.equal((await app.inject('/fine')).body, 'fine');
    });
  }
});

describe('front door streamed answers', () => {
  it('sends a stream chunked, without Content-Length, and HEAD gets the headers only', async () => {
    const { app } = doorFor([
      {
        path: '/export',
        methods: {
          GET: () => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: Readable.from(['a,b\r\n', '1,2\r\n']) }),
          HEAD: () => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: Readable.from(['never read']) }),
        },
      },
    ]);
    const response = await app.inject({ method: 'GET', url: '/export' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'a,b\r\n1,2\r\n');
    assert.equal(response.headers['content-length'], undefined);
    const head = await app.inject({ method: 'HEAD', url: '/export' });
    assert.equal(head.body, '');
  });

  it('cuts the connection when the stream fails midway, so half a file is never taken for all of it', async () => {
    const failing = () =>
      Readable.from(
        (async function* () {
          yield 'a,b\r\n';
          throw new Error('disk gone');
        })(),
      );
    const { app } = doorFor([{ path: '/export', methods: { GET: () => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: failing() }) } }]);
    const server = await app.listen();
    try {
      await assert.rejects(async () => {
        const response = await fetch(`${server.address}/export`);
        await response.text();
      });
    } finally {
      await server.close(0);
    }
  });
});
