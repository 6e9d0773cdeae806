// A follower's server in a process of its own (test/activitypub/follower-process.test.ts), written with Fedify and
// nothing of Postbox: one Person, alice, on the loopback address given as argv[2] (127.0.0.2). Driven over the IPC
// channel: `follow` the blog's actor, `reply` to an Article, `down` (its inboxes answer 503) or up again. It tells
// its parent every POST its inboxes got ({ post: { type, status, signed, object } }), before Fedify takes it: two
// POSTs of one activity are two, even though Fedify would ignore the second.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createFederation, generateCryptoKeyPair, MemoryKvStore } from '@fedify/fedify';
import { Accept, Create, Delete, Endpoints, Follow, Note, Person, PUBLIC_COLLECTION, Update } from '@fedify/fedify/vocab';

export type FollowerCommand = { type: 'follow'; actor: string } | { type: 'reply'; article: string; text: string } | { type: 'down'; down: boolean };

export type FollowerMessage =
  | { ready: string }
  | { done: string }
  | { failed: string }
  | { post: { type: string; status: number; signed: boolean; object: { id?: string; type?: string; name?: string; url?: string; content?: string } } };

const host = process.argv[2] ?? '127.0.0.2';
const send = (message: FollowerMessage) => process.send?.(message);
let down = false;
let origin = '';

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
const ignore = () => undefined;
federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Accept, ignore).on(Create, ignore).on(Update, ignore).on(Delete, ignore);

async function answer(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
  const isInbox = request.method === 'POST' && /\/inbox$/.test(request.url ?? '');
  let status: number;
  let answered: Response | undefined;
  if (isInbox && down) status = 503;
  else {
    answered = await federation.fetch(new Request(new URL(request.url!, origin), { method: request.method, headers, body: request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(body) }), {
      contextData: undefined,
    });
    status = answered.status;
  }
  if (isInbox) {
    const activity = JSON.parse(body.toString('utf8')) as { type?: string; object?: unknown };
    const object = typeof activity.object === 'object' && activity.object !== null ? (activity.object as Record<string, unknown>) : {};
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    send({
      post: {
        type: String(activity.type),
        status,
        signed: headers.has('signature') || headers.has('signature-input'),
        object: { id: text(object.id), type: text(object.type), name: text(object.name), url: text(object.url), content: text(object.content) },
      },
    });
  }
  response.writeHead(status, answered ? Object.fromEntries(answered.headers) : {});
  response.end(answered ? Buffer.from(await answered.arrayBuffer()) : undefined);
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => void answer(request, response, Buffer.concat(chunks)).catch(() => response.writeHead(500).end()));
});
await new Promise<void>((resolve) => server.listen(0, host, resolve));
origin = `http://${host}:${(server.address() as { port: number }).port}`;
const context = federation.createContext(new URL(origin), undefined);
const alice = context.getActorUri('alice');

process.on('message', (command: FollowerCommand) => {
  void (async () => {
    if (command.type === 'down') {
      down = command.down;
      return send({ done: 'down' });
    }
    const blog = await context.lookupObject(command.type === 'follow' ? command.actor : command.article);
    if (command.type === 'follow') {
      if (!(blog instanceof Object) || !('inboxId' in blog)) throw new Error('the blog actor was not found');
      await context.sendActivity({ identifier: 'alice' }, blog as Person, new Follow({ id: new URL(`${origin}/follows/1`), actor: alice, object: new URL(command.actor) }));
      return send({ done: 'follow' });
    }
    const author = blog && 'attributionId' in blog ? (blog as { attributionId: URL | null }).attributionId : null;
    const actor = author && (await context.lookupObject(author));
    if (!actor || !('inboxId' in actor)) throw new Error('the author of the article was not found');
    const note = new Note({ id: new URL(`${origin}/notes/1`), attribution: alice, replyTarget: new URL(command.article), content: `<p>${command.text}</p>`, to: PUBLIC_COLLECTION });
    await context.sendActivity({ identifier: 'alice' }, actor as Person, new Create({ id: new URL(`${origin}/notes/1/create`), actor: alice, object: note, to: PUBLIC_COLLECTION }));
    send({ done: 'reply' });
  })().catch((error: unknown) => send({ failed: String(error) }));
});
process.on('disconnect', () => server.close(() => process.exit(0)));
send({ ready: origin });
