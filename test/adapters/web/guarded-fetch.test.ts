// The fetch of webmentions (src/adapters/web/guarded-fetch.ts) against a real server on loopback: private addresses
// refused, whether given as a literal or by a name that resolves to one; the connection goes to the checked
// address; redirects are counted; a page past 1 MB is refused.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { createGuardedFetch } from '../../../src/adapters/web/guarded-fetch.js';
import { PageRefused } from '../../../src/comments/webmention/fetch-page.js';
import { listenOnLoopback } from '../../support/loopback-server.js';

let server: { port: number; close(): Promise<void> } | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server whose /redirect/<n> redirects n more times, /big answers 2 MB, anything else a small page. */
async function start(): Promise<number> {
  server = await listenOnLoopback(
    createServer((request, response) => {
      const redirect = /^\/redirect\/(\d+)$/.exec(request.url ?? '');
      if (redirect) {
        const left = Number(redirect[1]);
        response.writeHead(302, { location: left === 0 ? '/page' : `/redirect/${left - 1}` }).end();
      } else if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('x'.repeat(2 * 1024 * 1024));
      } else {
        response.writeHead(200, { 'content-type': 'text/html', link: '</a>; rel="webmention"' }).end(`<p>${request.headers.host}</p>`);
      }
    }),
  );
  return server.port;
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof PageRefused, `expected a refusal, got ${String(error)}`);
  return error.reason;
};

describe('guarded fetch', () => {
  it('refuses a loopback literal and a name with any private address, without private sources', async () => {
    const port = await start();
    const fetchPage = createGuardedFetch(false, async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    assert.match(await refusal(fetchPage(`http://127.0.0.1:${port}/page`)), /private/);
    assert.match(await refusal(fetchPage(`http://[::1]:${port}/page`)), /private/);
    assert.match(await refusal(fetchPage(`http://source.test:${port}/page`)), /private/);
  });

  it('connects to the address it resolved and checked, and keeps the Link headers', async () => {
    const port = await start();
    const asked: string[] = [];
    const fetchPage = createGuardedFetch(true, async (name) => {
      asked.push(name);
      return [{ address: '127.0.0.1', family: 4 }];
    });
    const page = await fetchPage(`http://source.test:${port}/page`);
    assert.equal(page.status, 200);
    assert.equal(page.body, `<p>source.test:${port}</p>`);
    assert.deepEqual(page.links, ['</a>; rel="webmention"']);
    assert.deepEqual(asked, ['source.test']);
  });

  it('follows three redirects, refuses a fourth, and refuses a page past 1 MB', async () => {
    const port = await start();
    const fetchPage = createGuardedFetch(true);
    const followed = await fetchPage(`http://127.0.0.1:${port}/redirect/2`);
    assert.equal(followed.url, `http://127.0.0.1:${port}/page`);
    assert.match(await refusal(fetchPage(`http://127.0.0.1:${port}/redirect/3`)), /redirects/);
    assert.match(await refusal(fetchPage(`http://127.0.0.1:${port}/big`)), /1 MB/);
  });
});
