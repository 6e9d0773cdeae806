// The fetch of ActivityPub (src/adapters/web/pinned-fetch.ts) against a real server on loopback: a name is resolved
// once, by the lookup of the connection, and refused when an address is private (so an answer that changes after an
// earlier check cannot lead to a private address); with private addresses allowed it connects to the address it
// resolved; it sends the body and headers given, and hands back a redirect instead of following it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { createPinnedFetch, PrivateAddressRefused } from '../../../src/adapters/web/pinned-fetch.js';
import { listenOnLoopback } from '../../support/loopback-server.js';

const seen: Array<{ method: string; url: string; host: string | undefined; body: string; type: string | undefined }> = [];
const server = await listenOnLoopback(
  createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, host: request.headers.host, body, type: request.headers['content-type'] });
      if (request.url === '/moved') response.writeHead(302, { location: '/actor' }).end();
      else response.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify({ host: request.headers.host }));
    });
  }),
);
after(() => server.close());

const loopback = [{ address: '127.0.0.1', family: 4 }];
const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('pinned fetch', () => {
  it('refuses a loopback literal and a name that resolves to loopback, without private addresses', async () => {
    const before = seen.length;
    const fetchPinned = createPinnedFetch(false, async () => loopback);
    assert.ok((await refusalOf(fetchPinned(`http://127.0.0.1:${server.port}/actor`))) instanceof PrivateAddressRefused);
    const refused = await refusalOf(fetchPinned(`http://actor.test:${server.port}/actor`));
    assert.ok(refused instanceof PrivateAddressRefused);
    assert.equal(refused.code, 'EPRIVATEADDRESS');
    assert.equal(seen.length, before);
  });

  it('checks the answer the connection uses, not an earlier one (DNS rebinding)', async () => {
    const before = seen.length;
    // The name answers a public address first (as an earlier check would see it), then loopback.
    const answers = [[{ address: '93.184.215.14', family: 4 }], loopback];
    const resolveName = async () => answers.shift() ?? loopback;
    const earlierCheck = await resolveName();
    assert.equal(earlierCheck[0]!.address, '93.184.215.14');
    const refused = await refusalOf(createPinnedFetch(false, resolveName)(`http://actor.test:${server.port}/actor`));
    assert.ok(refused instanceof PrivateAddressRefused);
    assert.equal(seen.length, before);
  });

  it('connects to the address it resolved once, with private addresses allowed', async () => {
    const asked: string[] = [];
    const fetchPinned = createPinnedFetch(true, async (name) => (asked.push(name), loopback));
    const response = await fetchPinned(`http://actor.test:${server.port}/actor`, { headers: { accept: 'application/activity+json' } });
    assert.equal(response.status, 200);
    assert.equal(response.url, `http://actor.test:${server.port}/actor`);
    assert.equal(response.headers.get('content-type'), 'application/activity+json');
    assert.deepEqual(await response.json(), { host: `actor.test:${server.port}` });
    assert.deepEqual(asked, ['actor.test']);
  });

  it('posts the body of a Request, and hands back a redirect unfollowed', async () => {
    const fetchPinned = createPinnedFetch(true);
    const posted = await fetchPinned(new Request(`http://127.0.0.1:${server.port}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: '{"type":"Create"}' }));
    await posted.body?.cancel();
    assert.deepEqual(seen.at(-1), { method: 'POST', url: '/inbox', host: `127.0.0.1:${server.port}`, body: '{"type":"Create"}', type: 'application/activity+json' });
    const moved = await fetchPinned(`http://127.0.0.1:${server.port}/moved`, { redirect: 'manual' });
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.get('location'), '/actor');
    assert.equal(seen.at(-1)!.url, '/moved');
  });
});
