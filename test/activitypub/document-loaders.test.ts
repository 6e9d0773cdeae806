// Fedify's loaders on the fetch of ActivityPub (src/activitypub/federation/document-loaders.ts): every document,
// signed or not, and every hop of a redirect is fetched through the fetch given, so a name that resolves to a
// private address is refused when private addresses are not allowed, and reached when they are.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { createActorKeys, cryptoKeysOf } from '../../src/activitypub/federation/blog-federation.js';
import { createDocumentLoaderFactories } from '../../src/activitypub/federation/document-loaders.js';
import { fedify } from '../../src/activitypub/federation/fedify.js';
import { createPinnedFetch } from '../../src/adapters/web/pinned-fetch.js';
import { listenOnLoopback } from '../support/loopback-server.js';

const seen: Array<{ url: string; signed: 'none' | 'draft' | 'rfc9421' }> = [];
const server = await listenOnLoopback(
  createServer((request, response) => {
    const signed = request.headers['signature-input'] ? 'rfc9421' : request.headers.signature ? 'draft' : 'none';
    seen.push({ url: request.url!, signed });
    if (request.url === '/moved') return void response.writeHead(302, { location: '/actor' }).end();
    // The locked actor takes only RFC 9421 signatures.
    if (request.url === '/locked' && signed !== 'rfc9421') return void response.writeHead(401).end();
    response.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify({ id: `http://actor.test:${server.port}${request.url}`, type: 'Person' }));
  }),
);
after(() => server.close());

const resolveToLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
/** The loader factories on the fetch of ActivityPub, with every fetch it makes counted. */
function factoriesOn(allowPrivate: boolean) {
  const pinned = createPinnedFetch(allowPrivate, resolveToLoopback);
  const fetched: string[] = [];
  const counting: typeof fetch = (input, init) => (fetched.push(input instanceof Request ? input.url : String(input)), pinned(input, init));
  return { fetched, factories: createDocumentLoaderFactories(counting, new (fedify().MemoryKvStore)()) };
}
const keys = await cryptoKeysOf(await createActorKeys());
const actorUrl = (path: string) => `http://actor.test:${server.port}${path}`;

describe('the document loaders of the federation', () => {
  it('refuses a document on a name that resolves to a private address, without private addresses', async () => {
    const before = seen.length;
    const { factories } = factoriesOn(false);
    await assert.rejects(factories.documentLoaderFactory()(actorUrl('/actor')), { code: 'EPRIVATEADDRESS' });
    await assert.rejects(factories.contextLoaderFactory()(actorUrl('/context')), { code: 'EPRIVATEADDRESS' });
    await assert.rejects(factories.authenticatedDocumentLoaderFactory({ keyId: new URL('https://blog.example/actor#main-key'), privateKey: keys.privateKey })(actorUrl('/actor')), { code: 'EPRIVATEADDRESS' });
    assert.equal(seen.length, before);
  });

  it('loads through the fetch given, each redirect a fetch of its own, and contexts it knows without fetching', async () => {
    const { factories, fetched } = factoriesOn(true);
    const loaded = await factories.documentLoaderFactory()(actorUrl('/moved'));
    assert.equal(loaded.documentUrl, actorUrl('/actor'));
    assert.deepEqual(loaded.document, { id: actorUrl('/actor'), type: 'Person' });
    assert.deepEqual(fetched, [actorUrl('/moved'), actorUrl('/actor')]);
    await factories.contextLoaderFactory()('https://www.w3.org/ns/activitystreams');
    assert.equal(fetched.length, 2);
  });

  it('signs an authenticated fetch, trying RFC 9421 when the draft signature is refused', async () => {
    const { factories } = factoriesOn(true);
    const before = seen.length;
    const loaded = await factories.authenticatedDocumentLoaderFactory({ keyId: new URL('https://blog.example/actor#main-key'), privateKey: keys.privateKey })(actorUrl('/locked'));
    assert.deepEqual(loaded.document, { id: actorUrl('/locked'), type: 'Person' });
    assert.deepEqual(seen.slice(before), [
      { url: '/locked', signed: 'draft' },
      { url: '/locked', signed: 'rfc9421' },
    ]);
  });
});
