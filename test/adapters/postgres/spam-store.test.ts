// The spam quarantine in PostgreSQL (src/adapters/postgres/spam-store.ts) on a real server: the SpamStore contract
// over two pools of one database (two replicas); two `openBackend`s on one database (two replicas as `serve` builds
// them) give one winner of a burst of "Not spam" claims and of a challenge's uses; migration 5 makes its tables; and
// a database that cannot be reached is UnavailableError (503), not a bug.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openBackend } from '../../../src/adapters/postgres/backend.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { createPostgresSpamStore } from '../../../src/adapters/postgres/spam-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import type { Backend } from '../../../src/adapters/backend.js';
import type { SpamStore } from '../../../src/forms/spam/quarantine.js';
import { UnavailableError } from '../../../src/kit/unavailable-error.js';
import { loadTestConfig } from '../../support/config.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { spamEntry, spamStoreContract } from '../../support/spam-store-contract.js';

describe('the spam quarantine in PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  const backends: Backend[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all([...states.map((state) => state.close()), ...backends.map((backend) => backend.close())]);
    await postgres?.close();
  });

  const freshDatabase = async () => {
    databases += 1;
    return postgres.createDatabase(`spam_${databases}`);
  };

  /** Two pools (two replicas) on a fresh database. */
  async function replicas(): Promise<[PostgresState, PostgresState]> {
    const url = await freshDatabase();
    const pair: [PostgresState, PostgresState] = [createPostgresState(url, captureLogs().logger), createPostgresState(url, captureLogs().logger)];
    states.push(...pair);
    for (const state of pair) await state.migrated();
    return pair;
  }

  spamStoreContract(async () => {
    const [first, second] = await replicas();
    return [createPostgresSpamStore(first), createPostgresSpamStore(second)] as [SpamStore, SpamStore];
  });

  it('is migration 5, "spam quarantine"', async () => {
    assert.equal(MIGRATIONS.find((migration) => migration.version === 5)?.name, 'spam quarantine');
    const [state] = await replicas();
    const { rows } = await state.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 5');
    assert.deepEqual(rows, [{ name: 'spam quarantine' }]);
    const { rows: tables } = await state.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'spam_%' ORDER BY table_name",
    );
    assert.deepEqual(tables.map((table) => table.table_name), ['spam_challenges', 'spam_quarantine']);
  });

  it('gives one winner of a burst of claims and of challenge uses across two openBackends on one database', async () => {
    const url = await freshDatabase();
    const config = loadTestConfig(
      {
        data_dir: '/nonexistent',
        state: { backend: 'postgres', url },
        mail: { from: 'forms@example.com', to: 'owner@example.com' },
        forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
      },
      '/',
    );
    const pair = [openBackend(config, captureLogs().logger), openBackend(config, captureLogs().logger)];
    backends.push(...pair);
    for (const backend of pair) await backend.ready();
    const [first, second] = pair.map((backend) => backend.spam) as [SpamStore, SpamStore];
    const now = Date.now();
    const id = await first.quarantine(spamEntry('/contact', 1, { at: now }));
    assert.deepEqual((await second.list('/contact', { limit: 10 })).map((entry) => entry.id), [id], 'the other replica lists it');

    const claims = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).claim(id, now, 600_000)));
    assert.equal(claims.filter((claim) => claim.kind === 'claimed').length, 1);
    const uses = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).useOnce('nonce', now + 600_000)));
    assert.equal(uses.filter(Boolean).length, 1);
  });

  it('rejects with UnavailableError while the database cannot be reached, and works again once it answers', async () => {
    const [state] = await replicas();
    const store = createPostgresSpamStore(state);
    await store.quarantine(spamEntry('/contact', 1));
    await postgres.stop();
    try {
      await assert.rejects(store.quarantine(spamEntry('/contact', 2)), UnavailableError);
      await assert.rejects(store.useOnce('nonce', Date.now()), UnavailableError);
      await assert.rejects(store.list('/contact', { limit: 10 }), UnavailableError);
    } finally {
      await postgres.start();
    }
    assert.equal(await store.count('/contact'), 1);
  });
});
