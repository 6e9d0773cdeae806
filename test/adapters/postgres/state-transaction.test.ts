// PostgresState.transaction when the server stops in the middle of one: the statement fails with
// UnavailableError and the process goes on (a lost checked-out connection is not an unhandled 'error' event).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { UnavailableError } from '../../../src/kit/unavailable-error.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

describe('PostgresState.transaction while the server stops', () => {
  let postgres: TestPostgres;
  let state: PostgresState;
  before(async () => {
    postgres = await startPostgresServer();
    state = createPostgresState(await postgres.createDatabase('transaction_stop'), captureLogs().logger);
    await state.migrated();
  });
  after(async () => {
    await state?.close();
    await postgres?.close();
  });

  it('rejects with UnavailableError, without an uncaught error, and works again once the server is back', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const running = state.transaction(async (query) => {
        await query('SELECT 1');
        // The server stops while this transaction holds its connection.
        await postgres.stop();
        await new Promise((resolve) => setTimeout(resolve, 100));
        return query('SELECT 1');
      });
      await assert.rejects(running, UnavailableError);
      await postgres.start();
      await state.migrated();
      const again = await state.transaction(async (query) => (await query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one);
      assert.equal(again, 1);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    assert.deepEqual(uncaught, []);
  });
});
