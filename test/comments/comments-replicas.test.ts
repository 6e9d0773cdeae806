// A thread read from two replicas on one real PostgreSQL (docs/comments.md "Reading the comments"): a comment
// published on one shows on the other's next GET, an unchanged thread is answered from the replica's cached answer
// (304 to its ETag) after one read of its stamp, without reading the comments, and moderation's changes (spam,
// approval, removal) change the answer at once on the other replica.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { waitFor } from '../support/wait.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

/** The statements sent to PostgreSQL by this process (both replicas run in it) while `count` is on. */
function countStatements(): { during<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }>; restore(): void } {
  const original = pg.Client.prototype.query;
  let seen: string[] | undefined;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (seen && text) seen.push(text);
    return (original as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    async during(run) {
      seen = [];
      try {
        const result = await run();
        return { result, statements: seen };
      } finally {
        seen = undefined;
      }
    },
    restore: () => {
      pg.Client.prototype.query = original;
    },
  };
}

const readsComments = (statements: string[]) => statements.filter((text) => /FROM blog_comments\b/.test(text));
const readsStamp = (statements: string[]) => statements.filter((text) => /FROM blog_comment_thread_stamps\b/.test(text));

describe('a comment thread read from two replicas on PostgreSQL', () => {
  let postgres: TestPostgres;
  const apps: CommentsApp[] = [];
  const counter = countStatements();
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    counter.restore();
    for (const app of apps.splice(0)) await app.close();
    await postgres?.close();
  });

  it('shows a change made on one replica on the next GET of the other, and answers an unchanged thread without reading it', async () => {
    const url = await postgres.createDatabase('comment_thread_replicas');
    const [a, b] = await Promise.all([0, 1].map(() => startCommentsApp({ moderation: 'first' }, { state: { backend: 'postgres', url } })));
    apps.push(a!, b!);
    const thread = (replica: CommentsApp, headers: Record<string, string> = {}) => replica.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments', headers });
    // Each replica migrates in the background: it answers once that is done.
    for (const replica of [a!, b!]) await waitFor('replica ready', async () => ((await thread(replica)).statusCode === 200 ? true : undefined), 10_000);
    const { cookie, csrf } = await a!.signIn('jane');
    const decide = (fields: Record<string, string>) =>
      a!.service.inject({
        method: 'POST',
        url: '/admin/comments',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf_token: csrf, slug: 'hello', lang: 'en', ...fields }).toString(),
      });
    const shown = async (replica: CommentsApp) => ((await thread(replica)).json() as { comments: Array<{ id: string }> }).comments.map((comment) => comment.id);

    const empty = await thread(b!);
    assert.deepEqual(empty.json(), { comments: [], total: 0 });
    const first = (await a!.post('hello', { name: 'Ada', email: 'ada@example.org', text: 'First' })).json() as { id: string; status: string };
    assert.equal(first.status, 'pending');
    // A waiting comment changes the stamp but not what is shown: the same answer, the same ETag.
    const waiting = await thread(b!, { 'if-none-match': String(empty.headers.etag) });
    assert.equal(waiting.statusCode, 304);

    assert.equal((await decide({ action: 'approve', id: first.id })).statusCode, 303);
    const published = await thread(b!, { 'if-none-match': String(empty.headers.etag) });
    assert.equal(published.statusCode, 200, 'published on A, shown by B at once');
    assert.deepEqual((published.json() as { comments: Array<{ id: string }> }).comments.map((comment) => comment.id), [first.id]);
    const etag = String(published.headers.etag);

    // Unchanged: B reads the stamp, once, and not the comments.
    for (let round = 0; round < 3; round += 1) {
      const { result, statements } = await counter.during(() => thread(b!, { 'if-none-match': etag }));
      assert.equal(result.statusCode, 304);
      assert.deepEqual(readsComments(statements), [], 'the comments are not read again');
      assert.equal(readsStamp(statements).length, 1, 'one read of the stamp');
    }
    const { result: full, statements } = await counter.during(() => thread(b!, { 'accept-encoding': 'br' }));
    assert.equal(full.statusCode, 200);
    assert.equal(full.headers.etag, etag);
    assert.deepEqual(readsComments(statements), []);

    // Each change on A is B's next answer.
    a!.clock.advance(60_000);
    const second = (await a!.post('hello', { name: 'Ada', email: 'ada@example.org', text: 'Trusted now' })).json() as { id: string; status: string };
    assert.equal(second.status, 'published');
    const withSecond = await counter.during(() => thread(b!, { 'if-none-match': etag }));
    assert.equal(withSecond.result.statusCode, 200);
    assert.equal(readsComments(withSecond.statements).length, 1, 'read once after the change');
    assert.deepEqual(await shown(b!), [first.id, second.id]);

    assert.equal((await decide({ action: 'spam', id: second.id })).headers.location, '/admin/comments?notice=spam');
    assert.deepEqual(await shown(b!), [first.id], 'marked spam on A, gone on B');
    const afterSpam = String((await thread(b!)).headers.etag);
    assert.equal(afterSpam, etag, 'the thread shows what it showed before the second comment');

    const deleted = await decide({ action: 'delete', id: first.id, confirm: 'yes' });
    assert.equal(deleted.headers.location, '/admin/comments?notice=deleted', `answered ${deleted.statusCode}`);
    const removed = await thread(b!, { 'if-none-match': afterSpam });
    assert.equal(removed.statusCode, 200, 'deleted on A, gone on B');
    assert.deepEqual(removed.json(), { comments: [], total: 0 });
    assert.equal(removed.headers.etag, empty.headers.etag);
  });
});
