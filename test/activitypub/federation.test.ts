// The blog followed from another ActivityPub server (docs/activitypub.md): a second server written with Fedify on
// loopback finds the blog's actor through WebFinger, follows it (and is accepted), receives the Create(Article) of
// a post published after the follow, then its Update and Delete, replies with a Note that becomes a comment once
// approved, undoes the follow, follows again and deletes its account. An unsigned POST to the inbox is refused.
import assert from 'node:assert/strict';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createFederation, generateCryptoKeyPair, MemoryKvStore } from '@fedify/fedify';
import { Accept, Article, Create, Delete, Endpoints, Follow, Note, Person, PUBLIC_COLLECTION, Undo, Update } from '@fedify/fedify/vocab';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { composeServices } from '../../src/app/compose.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { createTempDir } from '../support/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Waits until `condition` holds, asking every 50 ms for at most 10 s (deliveries cross real sockets). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('the condition never held');
}

/** A port free now on loopback: blog.public_url must name it before the blog listens. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Node's request as a fetch Request on `origin`, and a Response written back. */
function bridge(origin: string, handle: (request: Request) => Promise<Response>) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
      const answer = await handle(new Request(new URL(request.url!, origin), { method: request.method, headers, body }));
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
  };
}

/** Alice's server: one Person whose inbox keeps what it receives. */
async function startRemoteServer() {
  const received: Array<Accept | Create | Update | Delete> = [];
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (context, identifier) => {
      if (identifier !== 'alice') return null;
      const [key] = await context.getActorKeyPairs(identifier);
      return new Person({
        id: context.getActorUri(identifier),
        preferredUsername: 'alice',
        name: 'Alice',
        url: new URL('/@alice', context.origin),
        inbox: context.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: context.getInboxUri() }),
        publicKey: key!.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher((_context, identifier) => (identifier === 'alice' ? [keys] : []));
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Accept, (_context, accept) => void received.push(accept))
    .on(Create, (_context, create) => void received.push(create))
    .on(Update, (_context, update) => void received.push(update))
    .on(Delete, (_context, deletion) => void received.push(deletion));
  let origin = '';
  const server = await listenOnLoopback(createServer((request, response) => bridge(origin, (fetched) => federation.fetch(fetched, { contextData: undefined }))(request, response)));
  cleanups.push(() => server.close());
  origin = `http://127.0.0.1:${server.port}`;
  return { federation, received, origin, context: () => federation.createContext(new URL(origin), undefined) };
}

describe('the blog on the fediverse', () => {
  it('is followed, delivers a new post, takes a reply as a comment and is unfollowed', async () => {
    const { dir, remove } = await createTempDir('activitypub');
    cleanups.push(remove);
    await mkdir(path.join(dir, 'posts'));
    await writeFile(path.join(dir, 'posts', 'first.md'), '---\ntitle: First\ndate: 2024-04-01\n---\nAn older post.\n');
    const port = await freePort();
    const blogOrigin = `http://127.0.0.1:${port}`;
    const config = loadTestConfig(
      {
        data_dir: 'data',
        mail: { from: 'blog@example.com', to: 'owner@example.com' },
        site: { title: 'The Blog', base_url: 'https://blog.example.com' },
        blog: {
          listen: `127.0.0.1:${port}`,
          public_url: blogOrigin,
          content_dir: 'posts',
          comments: { enabled: true, moderation: 'first' },
          activitypub: { enabled: true, username: 'news', allow_private_address: true },
        },
      },
      dir,
    );
    const composed = await composeServices(config, captureLogs());
    cleanups.push(() => composed.close());
    const blogService = composed.services.find((service) => service.name === 'blog')!;
    const blogServer = createServer(blogService.handle);
    await new Promise<void>((resolve) => blogServer.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => blogServer.close(() => resolve())));

    // WebFinger names the actor; NodeInfo says what serves it.
    const finger = await fetch(`${blogOrigin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:news@127.0.0.1:${port}`)}`);
    assert.equal(finger.status, 200);
    const self = ((await finger.json()) as { links: Array<{ rel: string; href?: string }> }).links.find((link) => link.rel === 'self');
    const actorUrl = `${blogOrigin}/activitypub/users/news`;
    assert.equal(self?.href, actorUrl);
    const nodeInfo = (await (await fetch(`${blogOrigin}/nodeinfo/2.1`)).json()) as { software: { name: string }; protocols: string[] };
    assert.equal(nodeInfo.software.name, 'postbox');
    assert.deepEqual(nodeInfo.protocols, ['activitypub']);

    // An inbox POST without a signature is refused.
    const unsigned = await fetch(`${blogOrigin}/activitypub/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: 'http://127.0.0.1:1/x', type: 'Follow', actor: 'http://127.0.0.1:1/users/x', object: actorUrl }),
    });
    assert.equal(unsigned.status, 401);

    const remote = await startRemoteServer();
    const context = remote.context();
    const alice = context.getActorUri('alice');
    const blogActor = await context.lookupObject(actorUrl);
    assert.ok(blogActor && 'inboxId' in blogActor);
    const follow = new Follow({ id: new URL(`${remote.origin}/follows/1`), actor: alice, object: new URL(actorUrl) });
    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, follow);
    await until(() => remote.received.some((activity) => activity instanceof Accept));
    const followersOf = async () => ((await (await fetch(`${actorUrl}/followers`, { headers: { accept: 'application/activity+json' } })).json()) as { totalItems: number }).totalItems;
    assert.equal(await followersOf(), 1);

    // A post published after the follow reaches Alice's shared inbox as Create(Article).
    await writeFile(path.join(dir, 'posts', 'hello.md'), '---\ntitle: Hello fediverse\ndate: 2024-05-01\ntags: [news]\n---\nA *new* post.\n');
    await until(() => remote.received.some((activity) => activity instanceof Create));
    const create = remote.received.find((activity): activity is Create => activity instanceof Create)!;
    const article = await create.getObject();
    assert.ok(article instanceof Article);
    assert.equal(article.name?.toString(), 'Hello fediverse');
    assert.equal(article.url?.href, 'https://blog.example.com/blog/hello');
    assert.equal(article.id?.href, `${blogOrigin}/activitypub/posts/en/hello`);
    assert.match(article.content?.toString() ?? '', /<em>new<\/em>/);
    assert.equal(remote.received.filter((activity) => activity instanceof Create).length, 1, 'the older post is not sent');

    // The outbox lists both posts.
    const outbox = (await (await fetch(`${actorUrl}/outbox`, { headers: { accept: 'application/activity+json' } })).json()) as { totalItems: number };
    assert.equal(outbox.totalItems, 2);

    // Alice's reply waits for moderation, then shows as a comment of kind "reply".
    // A direct message to the blog is not a public comment.
    const direct = new Note({ id: new URL(`${remote.origin}/notes/0`), attribution: alice, replyTarget: article.id, content: '<p>Just between us</p>', to: new URL(actorUrl) });
    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, new Create({ id: new URL(`${remote.origin}/notes/0/create`), actor: alice, object: direct, to: new URL(actorUrl) }));
    const note = new Note({ id: new URL(`${remote.origin}/notes/1`), attribution: alice, replyTarget: article.id, content: '<p>Welcome to the fediverse!</p>', to: PUBLIC_COLLECTION });
    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, new Create({ id: new URL(`${remote.origin}/notes/1/create`), actor: alice, object: note, to: PUBLIC_COLLECTION }));
    const store = createCommentFiles(config.data_dir);
    await until(async () => (await store.listAll()).length === 1);
    const [waiting] = await store.listAll();
    assert.deepEqual([waiting!.status, waiting!.text.trim()], ['waiting', 'Welcome to the fediverse!']);
    const thread = async () => (await (await fetch(`${blogOrigin}/api/blog/posts/hello/comments`)).json()) as { comments: Array<{ kind: string; html: string; author: { name: string } }> };
    assert.deepEqual((await thread()).comments, []);
    await store.setStatus(waiting!, waiting!.id, 'published');
    // The running service sees a change made beside it within a second (docs/comments.md "Import and export").
    await until(async () => (await thread()).comments.length === 1);
    const [shown] = (await thread()).comments;
    assert.equal(shown?.kind, 'reply');
    assert.equal(shown?.author.name, 'Alice');
    assert.match(shown?.html ?? '', /Welcome to the fediverse!/);

    // An edit is sent as Update, a post taken away as Delete of its id.
    await writeFile(path.join(dir, 'posts', 'hello.md'), '---\ntitle: Hello again\ndate: 2024-05-01\n---\nAn edited post.\n');
    await until(() => remote.received.some((activity) => activity instanceof Update));
    const updated = await remote.received.find((activity): activity is Update => activity instanceof Update)!.getObject();
    assert.equal(updated?.name?.toString(), 'Hello again');
    await unlink(path.join(dir, 'posts', 'hello.md'));
    await until(() => remote.received.some((activity) => activity instanceof Delete));
    const deletion = remote.received.find((activity): activity is Delete => activity instanceof Delete)!;
    assert.equal(deletion.objectId?.href, article.id?.href);

    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, new Undo({ id: new URL(`${remote.origin}/follows/1/undo`), actor: alice, object: follow }));
    await until(async () => (await followersOf()) === 0);

    // Following again, then deleting the account, removes the follow too.
    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, new Follow({ id: new URL(`${remote.origin}/follows/2`), actor: alice, object: new URL(actorUrl) }));
    await until(async () => (await followersOf()) === 1);
    await context.sendActivity({ identifier: 'alice' }, blogActor as Person, new Delete({ id: new URL(`${remote.origin}/users/alice#delete`), actor: alice, object: alice, to: PUBLIC_COLLECTION }));
    await until(async () => (await followersOf()) === 0);
  });
});
