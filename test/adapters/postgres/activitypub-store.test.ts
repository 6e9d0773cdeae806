// The blog's ActivityPub records in PostgreSQL (src/adapters/postgres/activitypub-store.ts) on a real server: the
// store contract, reopened as a second replica's pool, two replicas taking the same inboxes at once, and migrations
// 16 and 18 making its tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresActivityPubStore } from '../../../src/adapters/postgres/activitypub-store.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { activityPubStoreContract } from '../../support/activitypub-store-contract.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

describe('ActivityPub records in PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await postgres?.close();
  });

  async function openState(url: string): Promise<PostgresState> {
    const state = createPostgresState(url, captureLogs().logger);
    states.push(state);
    await state.migrated();
    return state;
  }

  activityPubStoreContract(async () => {
    databases += 1;
    const url = await postgres.createDatabase(`activitypub_${databases}`);
    return { store: createPostgresActivityPubStore(await openState(url)), reopen: async () => createPostgresActivityPubStore(await openState(url)) };
  });

  it('lets one of two replicas that take the same inboxes at once have each', async () => {
    databases += 1;
    const url = await postgres.createDatabase(`activitypub_${databases}`);
    const [first, second] = [createPostgresActivityPubStore(await openState(url)), createPostgresActivityPubStore(await openState(url))];
    const inboxes = Array.from({ length: 50 }, (_, index) => `https://s${index}.example/inbox`);
    const taken = await Promise.all([first, second].map((store) => store.takeInboxes('a@en', 'https://blog.example/a#create', inboxes)));
    assert.deepEqual([...taken[0]!, ...taken[1]!].sort(), [...inboxes].sort());
  });

  it('is migration 18, "blog activitypub inboxes queued"', async () => {
    assert.equal(MIGRATIONS.find((candidate) => candidate.version === 18)?.name, 'blog activitypub inboxes queued');
  });

  it('is migration 16, "blog activitypub"', async () => {
    assert.equal(MIGRATIONS.find((candidate) => candidate.version === 16)?.name, 'blog activitypub');
    databases += 1;
    const state = await openState(await postgres.createDatabase(`activitypub_${databases}`));
    const { rows } = await state.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 16');
    assert.deepEqual(rows, [{ name: 'blog activitypub' }]);
  });
});
