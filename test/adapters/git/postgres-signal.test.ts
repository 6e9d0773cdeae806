// "The remote moved" between replicas over a real PostgreSQL (docs/admin.md "Posts in git"): a NOTIFY reaches the
// other replicas and not the sender; two replicas that never fetch on a timer (pull_seconds = 0) serve each
// other's saves through it alone; and after PostgreSQL comes back, a replica listens again and fetches once
// for what it may have missed.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openContentRepository } from '../../../src/adapters/git/content-repository.js';
import { createContentSync } from '../../../src/adapters/git/content-sync.js';
import { createGitRunner } from '../../../src/adapters/git/git-command.js';
import { createPostgresSignal } from '../../../src/adapters/git/postgres-signal.js';
import { createTestClock } from '../../support/clock.js';
import { createBareRemote, writeFiles } from '../../support/git-repos.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const POSTBOX = { name: 'Postbox', email: 'postbox@postbox.invalid' };

describe('the signal between replicas', () => {
  let postgres: TestPostgres;
  let temp: { dir: string; remove: () => Promise<void> };
  before(async () => {
    postgres = await startPostgresServer();
    temp = await createTempDir('git-signal');
  });
  after(async () => {
    await postgres?.close();
    await temp?.remove();
  });

  it('reaches the other replicas, not the one that sent it', async () => {
    const logs = captureLogs();
    const heard = { a: 0, b: 0 };
    const a = createPostgresSignal(postgres.url, logs.logger, { channel: 'test_signal_one' });
    const b = createPostgresSignal(postgres.url, logs.logger, { channel: 'test_signal_one' });
    a.listen(() => (heard.a += 1));
    b.listen(() => (heard.b += 1));
    try {
      // Both listening: each can send (b's sends are heard by a, which is not what is counted below).
      await waitFor('both listening', async () => ((await Promise.all([a.send(), b.send()]).then(() => true, () => false)) ? true : undefined), 10_000);
      await waitFor('a hearing b', () => (heard.a >= 1 ? true : undefined), 5_000);
      heard.a = 0;
      heard.b = 0;
      await Promise.all([a.send(), a.send()]);
      await waitFor('b hearing both', () => (heard.b >= 2 ? true : undefined), 5_000);
      assert.equal(heard.a, 0, 'a hears nothing of its own');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('makes a save on one replica served by the other through the signal alone, with no periodic fetch', async () => {
    const remote = await createBareRemote(path.join(temp.dir, 'two'), { 'hello.md': 'first\n' });
    const replicas = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const contentDir = path.join(temp.dir, 'two', name);
        await mkdir(contentDir, { recursive: true });
        const clock = createTestClock();
        const logs = captureLogs();
        const repository = await openContentRepository({ contentDir, remote, branch: 'main', committer: POSTBOX }, createGitRunner(), clock);
        const signal = createPostgresSignal(postgres.url, logs.logger, { channel: 'test_signal_two' });
        const sync = createContentSync({ repository, logger: logs.logger, clock, identityOf: async () => ({ name: name, email: `${name}@example.org` }), signal, pullMs: 0 });
        return { contentDir, signal, sync };
      }),
    );
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    try {
      await waitFor('both listening', async () => ((await Promise.all(replicas.map((replica) => replica.signal.send().then(() => true, () => false)))).every(Boolean) ? true : undefined), 10_000);
      const outcome = await a.sync.exclusive(async () => {
        await writeFiles(a.contentDir, { 'hello.md': 'second, from a\n' });
        return a.sync.record({ action: 'edit', subject: 'hello.md', paths: ['hello.md'], author: 'a' });
      });
      assert.deepEqual(outcome, { ok: true });
      // No timer fetches (pullMs 0): only the signal can bring the save, however long a busy machine takes.
      await waitFor('b to take in a\u2019s save', async () => ((await readFile(path.join(b.contentDir, 'hello.md'), 'utf8')) === 'second, from a\n' ? true : undefined), 30_000);
    } finally {
      await Promise.all(replicas.map((replica) => replica.sync.close()));
    }
  });

  it('listens again after PostgreSQL comes back, and asks for one fetch then', async () => {
    const logs = captureLogs();
    let heard = 0;
    const signal = createPostgresSignal(postgres.url, logs.logger, { channel: 'test_signal_three', reconnectMs: 50 });
    signal.listen(() => (heard += 1));
    try {
      await waitFor('listening', () => signal.send().then(() => true, () => undefined), 10_000);
      await postgres.stop();
      await waitFor('the loss noticed', () => (logs.lines().some((line) => line.event === 'content_signal_unavailable') ? true : undefined), 10_000);
      await assert.rejects(signal.send());
      await postgres.start();
      await waitFor('listening again', () => (logs.lines().some((line) => line.event === 'content_signal_listening') ? true : undefined), 15_000);
      assert.equal(heard, 1, 'one fetch for what may have been missed');
      await signal.send();
    } finally {
      await signal.close();
    }
  });
});
