// A blog without [mail] followed by a server in another process on another loopback address (127.0.0.2), written
// with Fedify alone (test/support/fedify-follower.ts): WebFinger resolves, the Follow is accepted, a published post
// arrives as one signed Create(Article) with the post's URL and HTML within 5 s, a title edit as one Update while a
// save without change sends nothing, an unpublished post as Delete; the follower's reply waits in /admin's comments
// and shows in the post's comments once approved; an unsigned POST is 401; and a post sent while the follower's
// inbox is down reaches it after the queue's retry (the queue on fake time, moved by the test).
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { composeServices } from '../../src/app/compose.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { loadTestConfig } from '../support/config.js';
import { createFakeTimer } from '../support/fake-timers.js';
import type { FollowerCommand, FollowerMessage } from '../support/fedify-follower.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';

type Post = Extract<FollowerMessage, { post: unknown }>['post'];

const FOLLOWER_HOST = '127.0.0.2';
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Waits until `condition` holds, asking every 50 ms for at most `limitMs` (deliveries cross real sockets). */
async function until(what: string, condition: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() <= deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${what}: not within ${limitMs} ms`);
}

/** A port free now on loopback: blog.public_url must name it before the blog listens. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The follower's process, and what it told so far. */
async function startFollower() {
  const script = fileURLToPath(new URL('../support/fedify-follower.ts', import.meta.url));
  const child: ChildProcess = fork(script, [FOLLOWER_HOST], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanups.push(async () => {
    if (child.exitCode === null && child.connected) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    }
  });
  const messages: FollowerMessage[] = [];
  child.on('message', (message: FollowerMessage) => messages.push(message));
  // Loading Fedify through tsx takes seconds on a busy machine.
  await until('the follower listens', () => messages.some((message) => 'ready' in message), 60_000);
  const command = async (sent: FollowerCommand) => {
    const before = messages.length;
    child.send(sent);
    await until(`the follower's ${sent.type}`, () => messages.slice(before).some((message) => 'done' in message || 'failed' in message));
    const failed = messages.slice(before).find((message): message is { failed: string } => 'failed' in message);
    assert.equal(failed, undefined);
  };
  const posts = (type: string, accepted = true): Post[] =>
    messages.flatMap((message) => ('post' in message && message.post.type === type && (message.post.status < 300) === accepted ? [message.post] : []));
  return { command, posts };
}

describe('a blog without [mail], followed from another process', () => {
  it('delivers its posts, takes a reply into moderation and reaches an inbox that was down', async () => {
    const { dir, remove } = await createTempDir('activitypub-follower');
    cleanups.push(remove);
    await mkdir(path.join(dir, 'posts'));
    await writeFile(path.join(dir, 'posts', 'first.md'), '---\ntitle: First\ndate: 2024-04-01\n---\nAn older post.\n');
    const follower = await startFollower();
    const port = await freePort();
    const blogOrigin = `http://127.0.0.1:${port}`;
    const config = loadTestConfig(
      {
        data_dir: 'data',
        site: { title: 'The Blog', base_url: 'https://blog.example.com' },
        blog: {
          listen: `127.0.0.1:${port}`,
          public_url: blogOrigin,
          content_dir: 'posts',
          comments: { enabled: true, moderation: 'first' },
          activitypub: { enabled: true, allow_private_address: true },
        },
        admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
      },
      dir,
    );
    assert.equal(config.mail, undefined);
    const timers = createFakeTimer(Date.now());
    const composed = await composeServices(config, { ...captureLogs(), timers });
    cleanups.push(() => composed.close());
    const blogService = composed.services.find((service) => service.name === 'blog')!;
    const blogServer = createServer(blogService.handle);
    await new Promise<void>((resolve) => blogServer.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => blogServer.close(() => resolve())));
    const admin = driveService(blogService);
    const signedIn = await admin.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    const adminPage = async (url: string) => (await admin.inject({ method: 'GET', url, headers: { cookie } })).body;

    // WebFinger names the actor.
    const actorUrl = `${blogOrigin}/activitypub/users/blog`;
    const finger = await fetch(`${blogOrigin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:blog@127.0.0.1:${port}`)}`);
    assert.equal(finger.status, 200);
    assert.equal(((await finger.json()) as { links: Array<{ rel: string; href?: string }> }).links.find((link) => link.rel === 'self')?.href, actorUrl);

    // An unsigned POST to the inbox is refused.
    const unsigned = await fetch(`${actorUrl}/inbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json' },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: 'http://127.0.0.2:1/x', type: 'Follow', actor: 'http://127.0.0.2:1/users/x', object: actorUrl }),
    });
    assert.equal(unsigned.status, 401);

    // The follow is accepted; /admin counts and lists the follower.
    await follower.command({ type: 'follow', actor: actorUrl });
    await until('the Accept', () => follower.posts('Accept').length === 1);
    assert.match(await adminPage('/admin/followers'), /<strong>1<\/strong> account follows the blog/);
    assert.match(await adminPage('/admin/followers'), new RegExp(`http://${FOLLOWER_HOST.replaceAll('.', '\\.')}:\\d+/users/alice`));

    // A post published now arrives as one signed Create(Article) within 5 s.
    await writeFile(path.join(dir, 'posts', 'hello.md'), '---\ntitle: Hello fediverse\ndate: 2024-05-01\n---\nA *new* post.\n');
    await until('the Create', () => follower.posts('Create').length === 1, 5_000);
    const [create] = follower.posts('Create');
    assert.equal(create!.signed, true);
    assert.equal(create!.object.type, 'Article');
    assert.equal(create!.object.url, 'https://blog.example.com/blog/hello');
    assert.match(create!.object.content ?? '', /<em>new<\/em>/);
    const articleId = create!.object.id!;

    // Alice's reply waits in /admin's comments, then shows in the post's comments once approved.
    await follower.command({ type: 'reply', article: articleId, text: 'Welcome to the fediverse!' });
    await until('the reply in /admin', async () => (await adminPage('/admin/comments')).includes('Welcome to the fediverse!'));
    const thread = async () => (await (await fetch(`${blogOrigin}/api/blog/posts/hello/comments`)).json()) as { comments: Array<{ kind: string; html: string }> };
    assert.deepEqual((await thread()).comments, []);
    const [waiting] = await createCommentFiles(config.data_dir).listAll();
    const page = await adminPage('/admin/comments');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
    const approved = await admin.inject({
      method: 'POST',
      url: '/admin/comments',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: csrf, action: 'approve', slug: 'hello', lang: 'en', id: waiting!.id }).toString(),
    });
    assert.equal(approved.statusCode, 303);
    await until('the reply in the comments', async () => (await thread()).comments.length === 1);
    assert.equal((await thread()).comments[0]!.kind, 'reply');

    // A title edit is one Update; a save that changes nothing sends nothing; unpublishing sends Delete.
    const edited = '---\ntitle: Hello again\ndate: 2024-05-01\n---\nA *new* post.\n';
    await writeFile(path.join(dir, 'posts', 'hello.md'), edited);
    await until('the Update', () => follower.posts('Update').length === 1);
    assert.equal(follower.posts('Update')[0]!.object.name, 'Hello again');
    await writeFile(path.join(dir, 'posts', 'hello.md'), edited);
    await writeFile(path.join(dir, 'posts', 'hello.md'), '---\ntitle: Hello again\ndate: 2024-05-01\ndraft: true\n---\nA *new* post.\n');
    await until('the Delete', () => follower.posts('Delete').length === 1);
    assert.equal(follower.posts('Delete')[0]!.object.id, articleId);
    assert.equal(follower.posts('Update').length, 1, 'the save without a change sent nothing');

    // The follower's inbox is down: the Create is refused, then tried again by the queue once its time comes.
    await follower.command({ type: 'down', down: true });
    await writeFile(path.join(dir, 'posts', 'later.md'), '---\ntitle: Later\ndate: 2024-06-01\n---\nSent while the inbox was down.\n');
    await until('the refused Create', () => follower.posts('Create', false).length === 1);
    await follower.command({ type: 'down', down: false });
    assert.equal(follower.posts('Create').length, 1, 'not before its retry');
    await until('the Create after the retry', async () => {
      await timers.advance(10_000);
      return follower.posts('Create').length === 2;
    });
    assert.equal(follower.posts('Create')[1]!.object.url, 'https://blog.example.com/blog/later');
    assert.equal(follower.posts('Create', false).length, 1, 'tried once while the inbox was down');
  });
});
