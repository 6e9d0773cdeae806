// The suppression list in PostgreSQL (src/adapters/postgres/suppressions.ts) on a real server: the BounceStore
// contract over two pools of one database (two replicas), whose soft-bounce bursts suppress exactly once; migration
// 6 makes its tables; and `postbox migrate --from-files` copies data_dir/bounces once, however often it runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSuppressionFiles } from '../../../src/adapters/files/suppressions.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { createPostgresSuppressions } from '../../../src/adapters/postgres/suppressions.js';
import { importSuppressionsFromFiles } from '../../../src/adapters/postgres/suppressions-import.js';
import type { BounceStore } from '../../../src/bounces/bounce-store.js';
import { newSentId } from '../../../src/bounces/verp.js';
import type { Config } from '../../../src/config/config.js';
import { entry, storeContract, T0 } from '../../bounces/store-contract.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createCountingRandomBytes } from '../../support/random-bytes.js';
import { createTempDir } from '../../support/temp-dir.js';

describe('the suppression list in PostgreSQL', () => {
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

  /** Two pools (two replicas) on a fresh database. */
  async function replicas(): Promise<[PostgresState, PostgresState]> {
    databases += 1;
    const url = await postgres.createDatabase(`bounces_${databases}`);
    const pair: [PostgresState, PostgresState] = [createPostgresState(url, captureLogs().logger), createPostgresState(url, captureLogs().logger)];
    states.push(...pair);
    for (const state of pair) await state.migrated();
    return pair;
  }

  storeContract(async () => {
    const [first, second] = await replicas();
    return [createPostgresSuppressions(first), createPostgresSuppressions(second)] as [BounceStore, BounceStore];
  });

  it('is migration 6, "bounces and suppression list"', async () => {
    const migration = MIGRATIONS.find((candidate) => candidate.version === 6);
    assert.equal(migration?.name, 'bounces and suppression list');
    const [state] = await replicas();
    const { rows } = await state.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 6');
    assert.deepEqual(rows, [{ name: 'bounces and suppression list' }]);
  });

  it('copies data_dir/bounces with migrate --from-files, once however often it runs', async () => {
    const temp = await createTempDir('suppressions-import');
    try {
      const files = createSuppressionFiles(temp.dir);
      await files.suppress(entry('gone@example.org'));
      await files.suppress(entry('spam@example.org', T0 + 1, 'complaint'));
      await files.countSoft(entry('full@example.org', T0, 'soft'), { limit: 3, windowMs: 30 * 86_400_000 });
      await files.countSoft(entry('full@example.org', T0 + 1, 'soft'), { limit: 3, windowMs: 30 * 86_400_000 });
      await files.tallyCampaign('20261102T090000Z-abcd', 7, 'hard', T0);
      const sent = { id: newSentId(T0, createCountingRandomBytes()), to: ['visitor@example.org'], owner: false, kind: 'receipt' as const, form: '/contact', at: T0 };
      await files.recordSent(sent);

      const [state] = await replicas();
      const config = { data_dir: temp.dir } as Config;
      assert.deepEqual(await importSuppressionsFromFiles(temp.dir, config, state), { copied: 2, skipped: 0 });
      assert.deepEqual(await importSuppressionsFromFiles(temp.dir, config, state), { copied: 0, skipped: 2 });
      const store = createPostgresSuppressions(state);
      assert.deepEqual((await store.list()).map((suppressed) => suppressed.address), ['spam@example.org', 'gone@example.org']);
      assert.deepEqual(await store.findSent(sent.id), sent);
      assert.deepEqual(await store.campaignTally('20261102T090000Z-abcd'), { hard: 1, complaint: 0 });
      // The two soft bounces came along once each: the third suppresses.
      assert.equal(await store.countSoft(entry('full@example.org', T0 + 2, 'soft'), { limit: 3, windowMs: 30 * 86_400_000 }), 'suppressed');
    } finally {
      await temp.remove();
    }
  });
});
