// The queue's files (src/storage/queue-files.ts): group commits, leaving the queue, failed/, retry and drop
// from a second process's view of the same folder, and recovery from a crash between two steps.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { OutgoingMessage } from '../../src/queue/outgoing.js';
import { createQueueFiles as openQueueFiles } from '../../src/storage/queue-files.js';
import type { QueueStore } from '../../src/queue/store.js';
import { createTempDir } from '../support/temp-dir.js';

const mail = (subject: string): OutgoingMessage => ({
  channel: 'mail',
  form: '/contact',
  kind: 'owner',
  mail: { from: 'forms@example.com', to: 'owner@example.com', subject, text: 'hello', autoSubmitted: 'auto-generated' },
});
const NOW = Date.UTC(2026, 10, 23, 12);

describe('queue files', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const opened: QueueStore[] = [];
  /** A store over `folder`, closed after the test (it keeps its journal open). */
  const createQueueFiles = (folder: string) => {
    const store = openQueueFiles(folder);
    opened.push(store);
    return store;
  };
  beforeEach(async () => ({ dir, remove } = await createTempDir('queue')));
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await remove();
  });

  const segments = async () => (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));

  it('writes messages queued at the same time in one segment with two fsyncs per write', async () => {
    const store = createQueueFiles(dir);
    const added = await Promise.all(Array.from({ length: 20 }, (_, index) => store.add([mail(`m${index}`), mail(`r${index}`)], NOW)));
    assert.equal(added.flat().length, 40);
    assert.equal(new Set(added.flat().map((message) => message.id)).size, 40, 'every message has its own id');
    // The first call starts a write at once; the other 19 wait for it and share the next.
    assert.equal((await segments()).length, 2);
    assert.equal(store.fsyncCount(), 4);
    const lines = (await Promise.all((await segments()).map((name) => readFile(path.join(dir, name), 'utf8')))).join('').trim().split('\n');
    assert.equal(lines.length, 40);
    assert.deepEqual(JSON.parse(lines[0]!).message, mail('m0'));
  });

  it('removes a segment, its markers and tries once every message of it is done', async () => {
    const store = createQueueFiles(dir);
    const [first, second] = await store.add([mail('a'), mail('b')], NOW);
    await store.recordAttempt(first!.slot, { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' });
    await store.complete(second!.slot);
    assert.equal((await segments()).length, 1, 'one message still pending');
    assert.deepEqual((await store.listPending()).map((message) => message.id), [first!.id]);
    await store.complete(first!.slot);
    assert.deepEqual(await segments(), []);
    assert.deepEqual(await readdir(path.join(dir, 'done')), []);
    assert.deepEqual(await readdir(path.join(dir, 'state')), []);
  });

  it('gives a restarted process what is pending, with its tries, and nothing that was done', async () => {
    const store = createQueueFiles(dir);
    const [sent, waiting] = await store.add([mail('sent'), mail('waiting')], NOW);
    await store.complete(sent!.slot);
    const attempt = { attempts: 2, nextAttemptAt: NOW + 120_000, lastError: 'smtp_421: 421 try later' };
    await store.recordAttempt(waiting!.slot, attempt);

    const restarted = createQueueFiles(dir);
    const pending = await restarted.loadNew();
    assert.deepEqual(pending, [{ ...waiting!, attempt }]);
    assert.deepEqual(await restarted.loadNew(), [], 'a segment is read once');
  });

  it('moves a failed message to failed/, and retry puts it back with the same id', async () => {
    const store = createQueueFiles(dir);
    const [message] = await store.add([mail('bounce')], NOW);
    await store.fail(message!, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550: 550 <address> unknown' }, NOW + 5);
    assert.deepEqual(await segments(), []);
    assert.equal(await store.countFailed(), 1);
    const [failed] = await store.listFailed();
    assert.deepEqual(failed, { id: message!.id, createdAt: NOW, message: mail('bounce'), failedAt: NOW + 5, attempts: 1, lastError: 'smtp_550: 550 <address> unknown' });

    // `postbox queue retry` runs in another process: a second store over the same folder.
    const cli = createQueueFiles(dir);
    assert.equal(await cli.retryFailed('msg_unknown', NOW + 10), false);
    assert.equal(await cli.retryFailed(message!.id, NOW + 10), true);
    assert.equal(await store.countFailed(), 0);
    const [back] = await store.loadNew();
    assert.equal(back!.id, message!.id, 'the id stays (webhook receivers drop duplicates by it)');
    assert.equal(back!.createdAt, NOW + 10, 'a new lifetime');
    assert.equal(back!.attempt, undefined);
  });

  it('lets another process drop a pending or a failed message', async () => {
    const store = createQueueFiles(dir);
    const [keep, dropMe, bounced] = await store.add([mail('keep'), mail('drop'), mail('bounced')], NOW);
    await store.fail(bounced!, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550' }, NOW);
    const cli = createQueueFiles(dir);
    assert.equal(await cli.drop(dropMe!.id), 'pending');
    assert.equal(await cli.drop(bounced!.id), 'failed');
    assert.equal(await cli.drop('msg_nothing'), undefined);
    // An id that maps to the same file name as another's removes nothing of that other message.
    const [kept] = await store.add([mail('kept failed')], NOW);
    await store.fail(kept!, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550' }, NOW);
    assert.equal(await cli.drop(kept!.id.replace(/_/g, '.')), undefined);
    assert.equal(await store.countFailed(), 1);
    assert.equal(await store.isDone(dropMe!.slot), true);
    assert.equal(await store.isDone(keep!.slot), false);
    assert.deepEqual((await cli.listPending()).map((message) => message.id), [keep!.id]);
  });

  it('finishes a move to failed/ that a crash cut between the failed file and the marker', async () => {
    const store = createQueueFiles(dir);
    const [message] = await store.add([mail('half moved')], NOW);
    const record = { id: message!.id, slot: message!.slot, created_at: NOW, failed_at: NOW, attempts: 1, last_error: 'smtp_550', message: message!.message };
    await writeFile(path.join(dir, 'failed', `${message!.id}.json`), JSON.stringify(record));

    const restarted = createQueueFiles(dir);
    assert.deepEqual(await restarted.loadNew(), [], 'not sent again');
    assert.equal(await restarted.countFailed(), 1);
    assert.deepEqual(await segments(), [], 'the segment is gone with its last message');
  });

  it('never gives a running store its own segment as a new one while it is being written', async () => {
    const store = createQueueFiles(dir);
    await store.loadNew();
    for (let round = 0; round < 20; round += 1) {
      let written = false;
      const adding = store.add([mail(`round ${round}`)], NOW).then(() => (written = true));
      // A rescan in a tight loop meets the segment between its rename and the end of the write, if anywhere.
      while (!written) assert.deepEqual(await store.loadNew(), [], 'the rescan took the segment for another process\'s');
      await adding;
    }
  });

  it('never gives a running store a segment it is removing as a new one', async () => {
    const store = createQueueFiles(dir);
    await store.loadNew();
    for (let round = 0; round < 20; round += 1) {
      const [first, second] = await store.add([mail(`a ${round}`), mail(`b ${round}`)], NOW);
      await store.complete(first!.slot);
      // Rescans started together with the removal: their folder listings race its unlink.
      const [, ...rescans] = await Promise.all([store.complete(second!.slot), ...Array.from({ length: 8 }, () => store.loadNew())]);
      for (const found of rescans) assert.deepEqual(found, [], 'the rescan took a finished segment for a new one');
    }
  });

  it('takes a retry request once', async () => {
    const store = createQueueFiles(dir);
    assert.equal(await store.takeRetryRequest(), false);
    await createQueueFiles(dir).requestRetry();
    assert.equal(await store.takeRetryRequest(), true);
    assert.equal(await store.takeRetryRequest(), false);
  });

  it('rejects every waiting add when the folder cannot be written, and leaves no temp file', async () => {
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, 'a file where the queue folder should be');
    const store = createQueueFiles(blocked);
    const results = await Promise.allSettled([store.add([mail('a')], NOW), store.add([mail('b')], NOW)]);
    assert.deepEqual(results.map((result) => result.status), ['rejected', 'rejected']);
    assert.deepEqual(await readdir(dir), ['blocked']);
  });
});
