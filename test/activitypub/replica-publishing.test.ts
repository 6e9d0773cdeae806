// Two replicas on one PostgreSQL see the same post change at the same moment (docs/activitypub.md "Delivery"): each
// inbox gets the change's activity from one of them, once, and a later edit is again queued once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ArticleFields } from '../../src/activitypub/article.js';
import { createPostPublisher } from '../../src/activitypub/federation/post-publisher.js';
import type { QueuedActivity } from '../../src/activitypub/federation/blog-federation.js';
import { createPostgresActivityPubStore } from '../../src/adapters/postgres/activitypub-store.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import type { BlogSnapshot } from '../../src/blog/http/snapshot.js';
import { captureLogs } from '../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';

const article = (name: string, change: string): ArticleFields => ({
  key: 'hello@en',
  slug: 'hello',
  id: 'https://blog.example/activitypub/posts/en/hello',
  url: 'https://blog.example/blog/hello',
  name,
  summary: '',
  content: `<p>${name}</p>`,
  lang: 'en',
  published: '2024-05-01T00:00:00Z',
  updated: null,
  tags: [],
  images: [],
  change,
});

describe('replicas publishing the same change', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await postgres?.close();
  });

  it('queue each activity once per inbox between them', async () => {
    const url = await postgres.createDatabase('replica_publishing');
    const queued: QueuedActivity[] = [];
    let shown: ArticleFields[] = [];
    const replicas = await Promise.all(
      [1, 2].map(async () => {
        const state = createPostgresState(url, captureLogs().logger);
        states.push(state);
        await state.migrated();
        const store = createPostgresActivityPubStore(state);
        return {
          store,
          publisher: createPostPublisher({
            articlesOf: () => shown,
            audience: { actorId: 'https://blog.example/activitypub/users/blog', followersId: 'https://blog.example/activitypub/users/blog/followers' },
            store,
            enqueue: async (activities) => void queued.push(...activities),
            now: () => '2024-06-01T00:00:00Z',
            onError: (error) => assert.fail(error as Error),
          }),
        };
      }),
    );
    const [first, second] = replicas;
    for (let server = 0; server < 20; server += 1) {
      await first!.store.addFollower({ id: `https://s${server}.example/users/a`, inbox: `https://s${server}.example/users/a/inbox`, sharedInbox: `https://s${server}.example/inbox` });
    }
    const both = async () => {
      const snapshot = {} as BlogSnapshot;
      first!.publisher.notice(snapshot);
      second!.publisher.notice(snapshot);
      await Promise.all([first!.publisher.settled(), second!.publisher.settled()]);
    };
    const sent = (type: string) => queued.filter(({ activity }) => activity.type === type).map(({ inbox }) => inbox).sort();
    const everyInbox = Array.from({ length: 20 }, (_, server) => `https://s${server}.example/inbox`).sort();

    await both();
    shown = [article('Hello', 'one')];
    await both();
    assert.deepEqual(sent('Create'), everyInbox);
    shown = [article('Hello again', 'two')];
    await both();
    assert.deepEqual(sent('Update'), everyInbox);
    shown = [];
    await both();
    assert.deepEqual(sent('Delete'), everyInbox);
    assert.equal(queued.length, 60);
  });
});
