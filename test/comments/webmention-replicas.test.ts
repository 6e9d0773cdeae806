// Webmentions received by two replicas on one real PostgreSQL (docs/comments.md "Receiving"): each one is kept before
// its 202, its status is read on either replica, and of a burst sent to both each source is fetched and verified
// by one replica only; and answered 503 while PostgreSQL is away.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { waitFor } from '../support/wait.js';
import { SITE_ORIGIN, startCommentsApp, type CommentsApp } from './comments-app.js';

const TARGET = `${SITE_ORIGIN}/blog/hello`;

describe('webmentions received by two replicas on PostgreSQL', () => {
  let postgres: TestPostgres;
  const apps: CommentsApp[] = [];
  const closers: Array<() => Promise<void>> = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const close of closers.splice(0)) await close();
    await postgres?.close();
  });

  it('verifies each webmention of a burst sent to both replicas once, and shows its status on either', async () => {
    const fetched = new Map<string, number>();
    const site = await listenOnLoopback(
      createServer((request, response) => {
        fetched.set(request.url!, (fetched.get(request.url!) ?? 0) + 1);
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<article class="h-entry"><p class="e-content">About <a class="u-in-reply-to" href="${TARGET}">this</a>, ${request.url}</p></article>`);
      }),
    );
    closers.push(() => site.close());
    const url = await postgres.createDatabase('webmention_replicas');
    const replicas = await Promise.all([0, 1].map(() => startCommentsApp({ moderation: 'none', webmention_private_sources: true }, { state: { backend: 'postgres', url } })));
    apps.push(...replicas);
    const send = (replica: CommentsApp, source: string) =>
      replica.service.inject({ method: 'POST', url: '/webmention', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ source, target: TARGET }).toString() });
    // Each replica migrates in the background: one webmention each once it answers. Readiness is asked of the thread,
    // which no bucket limits: asked with webmentions, a slow migration would spend the source's hourly bucket.
    for (const [index, replica] of replicas.entries()) {
      await waitFor(`replica ${index} ready`, async () => ((await replica.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).statusCode === 200 ? true : undefined), 10_000);
      assert.equal((await send(replica, `http://127.0.0.1:${site.port}/ready-${index}`)).statusCode, 202);
    }

    const burst = await Promise.all(Array.from({ length: 24 }, (_, index) => send(replicas[index % 2]!, `http://127.0.0.1:${site.port}/note-${index}`)));
    assert.deepEqual(new Set(burst.map((answer) => answer.statusCode)), new Set([202]), JSON.stringify(replicas.flatMap((replica) => replica.logs().filter((line) => (line.level as number) >= 50))));
    for (const [index, answer] of burst.entries()) {
      // Read on the other replica than the one that took it.
      const path = new URL(answer.headers.location as string).pathname;
      await waitFor(`webmention ${index} verified`, async () => {
        const status = (await replicas[(index + 1) % 2]!.service.inject({ method: 'GET', url: path })).json() as { status: string };
        return status.status === 'pending' ? undefined : status;
      }).then((status) => assert.deepEqual(status, { status: 'accepted' }));
    }
    for (let index = 0; index < 24; index += 1) assert.equal(fetched.get(`/note-${index}`), 1, `note-${index} fetched ${fetched.get(`/note-${index}`)} times`);
    const thread = (await replicas[0]!.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { total: number; comments: Array<{ kind: string }> };
    assert.equal(thread.total, 26);
    assert.ok(thread.comments.every((comment) => comment.kind === 'reply'));

    // PostgreSQL away: a webmention cannot be kept, and says so, as every request that needs the store does.
    await postgres.stop();
    const away = await send(replicas[0]!, `http://127.0.0.1:${site.port}/while-away`);
    assert.equal(away.statusCode, 503);
    assert.equal((away.json() as { error: string }).error, 'unavailable');
    await postgres.start();
  });
});
