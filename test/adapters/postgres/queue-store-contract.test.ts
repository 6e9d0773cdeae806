// The queue table (src/adapters/postgres/queue-store.ts) held to the QueueStore contract on a real PostgreSQL:
// the claiming store and the second claimer are two replicas (two pools on one database), `postbox queue ...`
// is a third, and a restart is a new pool and store on the same database.
import { after, afterEach, before, describe } from 'node:test';
import { createPostgresQueueStore } from '../../../src/adapters/postgres/queue-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { queueStoreContract } from '../../support/queue-store-contract.js';

describe('the queue table under the QueueStore contract', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
  });
  after(async () => {
    await postgres?.close();
  });

  queueStoreContract(async (clock) => {
    const url = await postgres.createDatabase(`queue_contract_${(databases += 1)}`);
    let replicas = 0;
    const open = async () => {
      const state = createPostgresState(url, captureLogs().logger);
      states.push(state);
      await state.migrated();
      return createPostgresQueueStore(state, { owner: `replica-${(replicas += 1)}`, clock });
    };
    return { store: await open(), other: await open(), owner: await open(), reopen: open };
  });
});
