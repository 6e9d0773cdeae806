// `postbox migrate --from-files` for the mail queue: the pending and failed messages of data_dir/queue become rows
// with their ids, tries and errors, campaign mails in their lane; a second run copies nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { OutgoingMessage } from '../../../src/queue/outgoing.js';
import { createPostgresQueueStore } from '../../../src/adapters/postgres/queue-store.js';
import { importQueueFromFiles } from '../../../src/adapters/postgres/queue-import.js';
import { createPostgresState } from '../../../src/adapters/postgres/state.js';
import { createQueueFiles, queueDirOf } from '../../../src/adapters/files/queue-files.js';
import { loadTestConfig } from '../../support/config.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

/** A config of `dataDir` (the importer is handed the whole config, as `postbox migrate` has it). */
const configOf = (dataDir: string, url: string) =>
  loadTestConfig(
    {
      data_dir: dataDir,
      state: { backend: 'postgres', url },
      mail: { from: 'forms@example.com', to: 'owner@example.com' },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    },
    dataDir,
  );

const mail = (to: string, recipient?: { campaign: string; index: number }): OutgoingMessage => ({
  channel: 'mail',
  form: '/news',
  kind: recipient ? 'newsletter' : 'owner',
  mail: { from: 'forms@example.com', to, subject: 'Hello', text: 'Hello.', autoSubmitted: 'auto-generated' },
  ...(recipient ? { recipient } : {}),
});

describe('importing data_dir/queue into PostgreSQL', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  it('copies pending and failed messages once, with their tries, and nothing on a second run', async () => {
    const temp = await createTempDir('queue-import');
    const url = await postgres.createDatabase('queue_import');
    const state = createPostgresState(url, captureLogs().logger);
    try {
      const config = configOf(temp.dir, url);
      const files = createQueueFiles(queueDirOf(temp.dir));
      const [waiting, lost, campaignMail, sent] = await files.add([mail('a@example.org'), mail('b@example.org'), mail('c@example.org', { campaign: 'c1', index: 0 }), mail('d@example.org')], NOW);
      await files.release(waiting!.id, { attempts: 2, nextAttemptAt: NOW + 120_000, lastError: 'ECONNREFUSED' });
      await files.fail(lost!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550: refused' }, NOW + 5_000);
      await files.complete(sent!.id);
      await files.close();
      await state.migrated();

      assert.deepEqual(await importQueueFromFiles(temp.dir, config, state, NOW + 10_000), { copied: 3, skipped: 0 });
      assert.deepEqual(await importQueueFromFiles(temp.dir, config, state, NOW + 20_000), { copied: 0, skipped: 3 }, 'idempotent');

      const store = createPostgresQueueStore(state, { clock: () => NOW });
      assert.deepEqual(
        (await store.listPending()).map((message) => [message.id, message.createdAt, message.message, message.attempt]),
        [
          [waiting!.id, NOW, waiting!.message, { attempts: 2, nextAttemptAt: NOW + 120_000, lastError: 'ECONNREFUSED' }],
          [campaignMail!.id, NOW, campaignMail!.message, undefined],
        ],
      );
      assert.deepEqual(await store.listFailed(), [{ id: lost!.id, createdAt: NOW, message: lost!.message, failedAt: NOW + 5_000, attempts: 1, lastError: 'smtp_550: refused' }]);
      const client = new pg.Client(url);
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string; lane: string | null }>('SELECT id, lane FROM queue_messages WHERE lane IS NOT NULL');
        assert.deepEqual(rows, [{ id: campaignMail!.id, lane: 'campaign:c1' }], 'a campaign mail keeps to its lane');
      } finally {
        await client.end();
      }
      // The copied campaign mail is due now: a replica can claim it.
      assert.deepEqual((await store.claim({ limit: 5, retryLimit: 5 }, NOW + 20_000)).map((message) => message.id), [campaignMail!.id]);
    } finally {
      await state.close();
      await temp.remove();
    }
  });

  it('copies nothing from a data_dir without a queue', async () => {
    const temp = await createTempDir('queue-import-empty');
    const url = await postgres.createDatabase('queue_import_empty');
    const state = createPostgresState(url, captureLogs().logger);
    try {
      await state.migrated();
      const config = configOf(temp.dir, url);
      assert.deepEqual(await importQueueFromFiles(temp.dir, config, state), { copied: 0, skipped: 0 });
    } finally {
      await state.close();
      await temp.remove();
    }
  });
});
