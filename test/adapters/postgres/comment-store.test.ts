// The blog's comments in PostgreSQL (src/adapters/postgres/comment-store.ts) on a real server: the CommentStore
// contract, with the store opened again as a second replica's pool, and migration 9 making its tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresCommentStore } from '../../../src/adapters/postgres/comment-store.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { commentStoreContract } from '../../support/comment-store-contract.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

describe('comments in PostgreSQL', () => {
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

  commentStoreContract(async () => {
    databases += 1;
    const url = await postgres.createDatabase(`comments_${databases}`);
    const store = createPostgresCommentStore(await openState(url));
    return { store, reopen: async () => createPostgresCommentStore(await openState(url)) };
  });

  it('is migration 9, "blog comments"', async () => {
    assert.equal(MIGRATIONS.find((candidate) => candidate.version === 9)?.name, 'blog comments');
    databases += 1;
    const state = await openState(await postgres.createDatabase(`comments_${databases}`));
    const { rows } = await state.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 9');
    assert.deepEqual(rows, [{ name: 'blog comments' }]);
  });
});
