// `postbox queue list|retry|drop` with `[state] backend = "postgres"`: the same commands and output, on the
// queue table every replica shares.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Backend } from '../../src/adapters/backend.js';
import { openBackend } from '../../src/app/open-backend.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { parseQueueCommand, runQueueCommand } from '../../src/cli/queue.js';
import type { OutgoingMessage } from '../../src/queue/outgoing.js';
import { createPostgresQueueStore } from '../../src/adapters/postgres/queue-store.js';
import { createPostgresState } from '../../src/adapters/postgres/state.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const owner: OutgoingMessage = {
  channel: 'mail',
  form: '/contact',
  kind: 'owner',
  mail: { from: 'forms@example.com', to: 'owner@example.com', subject: 'Hello', text: 'Hello.', autoSubmitted: 'auto-generated' },
};

describe('postbox queue on the PostgreSQL queue', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  it('lists, retries and drops rows, naming no address', async () => {
    const temp = await createTempDir('queue-command-pg');
    const url = await postgres.createDatabase('queue_command');
    const state = createPostgresState(url, captureLogs().logger);
    let backend: Backend | undefined;
    try {
      await state.migrated();
      const store = createPostgresQueueStore(state, { owner: 'replica', clock: () => NOW });
      const [given, waiting] = await store.add([owner, { channel: 'telegram', form: '/contact', text: 'New message' }], NOW);
      await store.claim({ limit: 2, retryLimit: 2 }, NOW);
      await store.fail(given!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550: 550 <address> refused' }, NOW + 1_000);
      await store.release(waiting!.id, { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' });

      const config = loadTestConfig(
        {
          data_dir: temp.dir,
          state: { backend: 'postgres', url },
          mail: { from: 'forms@example.com', to: 'owner@example.com' },
          forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
        },
        temp.dir,
      );
      const output: string[] = [];
      const errors: string[] = [];
      const io = { out: (text: string) => output.push(text), error: (text: string) => errors.push(text), now: () => NOW + 2_000 };
      // As `postbox queue` opens it: one backend for the command, its clock the command's.
      backend = openBackend(config, createSilentLogger(), io.now);
      const run = (...args: string[]) => {
        const command = parseQueueCommand(args, { allFailed: false });
        assert.ok(!('problem' in command), args.join(' '));
        return runQueueCommand(command, backend!, io);
      };

      assert.equal(await run('list'), 0, errors.join(''));
      assert.equal(
        output.pop(),
        [
          '1 pending, 1 failed',
          `${waiting!.id}  pending  telegram  /contact  queued 2 s ago, 1 try, next 2024-05-01T12:01:00.000Z, last error ECONNREFUSED`,
          `${given!.id}  failed   mail/owner  /contact  given up 1 s ago after 1 try: smtp_550: 550 <address> refused`,
          '',
        ].join('\n'),
      );
      assert.equal(await run('retry', given!.id), 0);
      assert.match(output.pop()!, /back in the queue/);
      assert.deepEqual(await store.counts(), { pending: 2, failed: 0 });
      assert.equal(await run('retry', waiting!.id), 0);
      assert.match(output.pop()!, /pending; a running serve tries every pending message now/);
      assert.deepEqual((await store.claim({ limit: 5, retryLimit: 5 }, NOW + 2_000)).map((message) => message.id).sort(), [given!.id, waiting!.id].sort(), 'both due now');
      assert.equal(await run('drop', waiting!.id), 0);
      assert.equal(output.pop(), `${waiting!.id}: dropped (it was pending)\n`);
      assert.equal(await run('drop', waiting!.id), 1);
      assert.match(errors.pop()!, /no queued message with id/);
      assert.deepEqual(await store.counts(), { pending: 1, failed: 0 });
    } finally {
      await backend?.close();
      await state.close();
      await temp.remove();
    }
  });
});
