// A queued activity sent (docs/activitypub.md "Delivery"): signed by the blog's key and posted as
// application/activity+json; an answer other than 2xx fails with `http_<status>`, which the queue takes as
// temporary for 5xx and permanent for other 4xx; through the fetch of ActivityPub, an inbox on a private address,
// or on a name that resolves to one, is refused for good unless private addresses are allowed.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { createActorKeys, cryptoKeysOf } from '../../src/activitypub/federation/blog-federation.js';
import { createSignedDelivery } from '../../src/activitypub/federation/signed-delivery.js';
import { createPinnedFetch } from '../../src/adapters/web/pinned-fetch.js';
import { classifyFailure } from '../../src/queue/failure.js';
import { listenOnLoopback } from '../support/loopback-server.js';

const seen: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
let status = 202;
const server = await listenOnLoopback(
  createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  }),
);
after(() => server.close());
const inbox = `http://127.0.0.1:${server.port}/inbox`;
const keys = await cryptoKeysOf(await createActorKeys());
const resolveToLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
const deliver = (allowPrivateAddress: boolean) =>
  createSignedDelivery({ keyId: 'https://blog.example/activitypub/users/blog#main-key' }, { keyPair: async () => keys, fetch: createPinnedFetch(allowPrivateAddress, resolveToLoopback) });
const activity = { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Create', id: 'https://blog.example/x#create' };

/** The failure a delivery answered with `answer` rejects with, as the queue classifies it. */
async function failureOf(answer: number) {
  status = answer;
  const error = await deliver(true)(inbox, activity).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return error === undefined ? undefined : classifyFailure(error);
}

describe('a signed delivery', () => {
  it('posts the activity signed by the key it names', async () => {
    status = 202;
    await deliver(true)(inbox, activity);
    const [request] = seen;
    assert.equal(request!.headers['content-type'], 'application/activity+json');
    assert.match(String(request!.headers.signature), /keyId="https:\/\/blog\.example\/activitypub\/users\/blog#main-key"/);
    assert.ok(request!.headers.digest);
    assert.deepEqual(JSON.parse(request!.body), activity);
  });

  it('fails as the queue retries a 5xx and gives up a 4xx', async () => {
    assert.deepEqual(await failureOf(503), { permanent: false, reason: 'http_503' });
    assert.deepEqual(await failureOf(429), { permanent: false, reason: 'http_429' });
    assert.deepEqual(await failureOf(410), { permanent: true, reason: 'http_410' });
  });

  it('refuses an inbox on a private address unless allowed, for good', async () => {
    const before = seen.length;
    for (const privateInbox of [inbox, `http://inbox.test:${server.port}/inbox`]) {
      const error = await deliver(false)(privateInbox, activity).catch((thrown: unknown) => thrown);
      assert.deepEqual(classifyFailure(error), { permanent: true, reason: 'private_address' });
    }
    assert.equal(seen.length, before);
    status = 202;
    await deliver(true)(`http://inbox.test:${server.port}/inbox`, activity);
    assert.equal(seen.at(-1)!.headers.host, `inbox.test:${server.port}`);
  });
});
