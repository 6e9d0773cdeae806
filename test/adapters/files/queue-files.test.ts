// The queue's files (src/adapters/files/queue-files.ts): group commits, leaving the queue, failed/, retry and drop
// from a second process's view of the same folder, and recovery from a crash between two steps.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { OutgoingMessage } from '../../../src/queue/outgoing.js';
import { createQueueFiles as openQueueFiles } from '../../../src/adapters/files/queue-files.js';
import type { QueueStore } from '../../../src/queue/store.js';
import { createTempDir } from '../../support/temp-dir.js';

const mail = (subject: string): OutgoingMessage => ({
  channel: 'mail',
  form: '/contact',
  kind: 'owner',
  mail: { from: 'forms@example.com', to: 'owner@example.com', subject, text: 'hello', autoSubmitted: 'auto-generated' },
});
const NOW = Date.UTC(2026, 10, 23, 12);
/** A claim of everything due. */
const ALL = { limit: 100, retryLimit: 100 };

describe('queue files', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const opened: QueueStore[] = [];
  /** A store over `folder`, closed after the test (it keeps its journal open). */
  const createQueueFiles = (folder: string, rescanIntervalMs?: number) => {
    const store = openQueueFiles(folder, { rescanIntervalMs });
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
    await store.release(first!.id, { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' });
    await store.complete(second!.id);
    assert.equal((await segments()).length, 1, 'one message still pending');
    assert.deepEqual((await store.listPending()).map((message) => message.id), [first!.id]);
    await store.complete(first!.id);
    assert.deepEqual(await segments(), []);
    assert.deepEqual(await readdir(path.join(dir, 'done')), []);
    assert.deepEqual(await readdir(path.join(dir, 'state')), []);
  });

  it('gives a restarted process what is pending, with its tries, and nothing that was done', async () => {
    const store = createQueueFiles(dir);
    const [sent, waiting] = await store.add([mail('sent'), mail('waiting')], NOW);
    await store.complete(sent!.id);
    const attempt = { attempts: 2, nextAttemptAt: NOW + 120_000, lastError: 'smtp_421: 421 try later' };
    await store.release(waiting!.id, attempt);

    const restarted = createQueueFiles(dir);
    assert.deepEqual(await restarted.claim(ALL, NOW), [{ ...waiting!, attempts: 2, retry: true }], 'tried at once, as a retry');
    assert.deepEqual(await restarted.claim(ALL, NOW + 10_000), [], 'leased until it is settled');
    assert.deepEqual((await restarted.listPending()).map((message) => message.attempt), [attempt]);
  });

  it('moves a failed message to failed/, and retry puts it back with the same id', async () => {
    const store = createQueueFiles(dir);
    const [message] = await store.add([mail('bounce')], NOW);
    await store.fail(message!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550: 550 <address> unknown' }, NOW + 5);
    assert.deepEqual(await segments(), []);
    assert.equal(await store.countFailed(), 1);
    const [failed] = await store.listFailed();
    assert.deepEqual(failed, { id: message!.id, createdAt: NOW, message: mail('bounce'), failedAt: NOW + 5, attempts: 1, lastError: 'smtp_550: 550 <address> unknown' });

    // `postbox queue retry` runs in another process: a second store over the same folder.
    const cli = createQueueFiles(dir);
    assert.equal(await cli.retryFailed('msg_unknown', NOW + 10), false);
    assert.equal(await cli.retryFailed(message!.id, NOW + 10), true);
    assert.equal(await store.countFailed(), 0);
    const [back] = await store.claim(ALL, NOW + 10);
    assert.equal(back!.id, message!.id, 'the id stays (webhook receivers drop duplicates by it)');
    assert.equal(back!.createdAt, NOW + 10, 'a new lifetime');
    assert.deepEqual([back!.attempts, back!.retry], [0, false]);
  });

  it('lets another process drop a pending or a failed message', async () => {
    const store = createQueueFiles(dir);
    const [keep, dropMe, bounced] = await store.add([mail('keep'), mail('drop'), mail('bounced')], NOW);
    await store.fail(bounced!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550' }, NOW);
    const cli = createQueueFiles(dir);
    assert.equal(await cli.drop(dropMe!.id), 'pending');
    assert.equal(await cli.drop(bounced!.id), 'failed');
    assert.equal(await cli.drop('msg_nothing'), undefined);
    // An id that maps to the same file name as another's removes nothing of that other message.
    const [kept] = await store.add([mail('kept failed')], NOW);
    await store.fail(kept!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'smtp_550' }, NOW);
    assert.equal(await cli.drop(kept!.id.replace(/_/g, '.')), undefined);
    assert.equal(await store.countFailed(), 1);
    assert.deepEqual((await cli.listPending()).map((message) => message.id), [keep!.id]);
    assert.deepEqual((await createQueueFiles(dir).claim(ALL, NOW)).map((message) => message.id), [keep!.id], 'a restart never sends it');
  });

  it('tells the worker of a new message dropped by another process while it waited for its lane', async () => {
    const store = createQueueFiles(dir);
    const lane = () => 'campaign:c';
    const [first, second] = await store.add([mail('c0'), mail('c1')], NOW, lane);
    assert.deepEqual((await store.claim(ALL, NOW)).map((message) => message.id), [first!.id]);
    assert.equal(await createQueueFiles(dir).drop(second!.id), 'pending');
    await store.complete(first!.id);
    assert.deepEqual(await store.claim(ALL, NOW), [{ ...second!, attempts: 0, retry: false, dropped: true }], 'not to be sent');
    await store.complete(second!.id);
    assert.deepEqual(await store.counts(), { pending: 0, failed: 0 });
    assert.deepEqual(await segments(), []);
  });

  it('names each segment after the one before, so that a restart keeps a lane queued a message at a time in order', async (t) => {
    // On a fast disk (tmpfs) several segments are written within one millisecond; here all of them are.
    t.mock.method(Date, 'now', () => NOW);
    const store = createQueueFiles(dir);
    const lane = () => 'campaign:c';
    const added = [];
    for (let index = 0; index < 30; index += 1) added.push(...(await store.add([mail(`c${index}`)], NOW, lane)));
    assert.equal((await segments()).length, new Set((await segments()).map((name) => name.slice(0, 9))).size, 'no two of one millisecond');
    const restarted = createQueueFiles(dir);
    const order: string[] = [];
    for (let claimed = await restarted.claim(ALL, NOW); claimed.length > 0; claimed = await restarted.claim(ALL, NOW)) {
      order.push(claimed[0]!.id);
      await restarted.complete(claimed[0]!.id);
    }
    assert.deepEqual(order, added.map((message) => message.id));
  });

  it('finishes a move to failed/ that a crash cut between the failed file and the marker', async () => {
    const store = createQueueFiles(dir);
    const [message] = await store.add([mail('half moved')], NOW);
    const slot = (await readdir(dir)).find((name) => name.endsWith('.jsonl'))!.replace('.jsonl', '.0');
    const record = { id: message!.id, slot, created_at: NOW, failed_at: NOW, attempts: 1, last_error: 'smtp_550', message: message!.message };
    await writeFile(path.join(dir, 'failed', `${message!.id}.json`), JSON.stringify(record));

    const restarted = createQueueFiles(dir);
    assert.deepEqual(await restarted.claim(ALL, NOW), [], 'not sent again');
    assert.equal(await restarted.countFailed(), 1);
    assert.deepEqual(await segments(), [], 'the segment is gone with its last message');
  });

  it('never takes its own segment for another process\'s while it is being written', async () => {
    // Every claim reads the folder again.
    const store = createQueueFiles(dir, 0);
    await store.claim({ limit: 0, retryLimit: 0 }, NOW);
    for (let round = 0; round < 20; round += 1) {
      let written = false;
      const adding = store.add([mail(`round ${round}`)], NOW).then(() => (written = true));
      // A rescan in a tight loop meets the segment between its rename and the end of the write, if anywhere.
      while (!written) await store.claim({ limit: 0, retryLimit: 0 }, NOW);
      await adding;
    }
    assert.equal((await store.claim(ALL, NOW)).length, 20, 'each message once');
    assert.deepEqual(await store.counts(), { pending: 20, failed: 0 });
  });

  it('never takes a segment it is removing for a new one', async () => {
    const store = createQueueFiles(dir, 0);
    await store.claim({ limit: 0, retryLimit: 0 }, NOW);
    for (let round = 0; round < 20; round += 1) {
      const [first, second] = await store.add([mail(`a ${round}`), mail(`b ${round}`)], NOW);
      await store.claim(ALL, NOW);
      await store.complete(first!.id);
      // Rescans started together with the removal: their folder listings race its unlink.
      await Promise.all([store.complete(second!.id), ...Array.from({ length: 8 }, () => store.claim({ limit: 0, retryLimit: 0 }, NOW))]);
      assert.deepEqual(await store.claim(ALL, NOW), [], 'the rescan took a finished segment for a new one');
    }
    assert.deepEqual(await store.counts(), { pending: 0, failed: 0 });
  });

  it('makes every waiting message due now once `postbox queue retry` asks', async () => {
    const store = createQueueFiles(dir, 1_000);
    const [message] = await store.add([mail('later')], NOW);
    await store.claim(ALL, NOW);
    await store.release(message!.id, { attempts: 1, nextAttemptAt: NOW + 3_600_000, lastError: 'ECONNREFUSED' });
    assert.deepEqual(await store.claim(ALL, NOW + 1_000), [], 'not due yet');
    await createQueueFiles(dir).requestRetry();
    assert.deepEqual((await store.claim(ALL, NOW + 2_000)).map((claimed) => [claimed.id, claimed.attempts, claimed.retry]), [[message!.id, 1, true]]);
    await store.release(message!.id, { attempts: 2, nextAttemptAt: NOW + 3_600_000, lastError: 'ECONNREFUSED' });
    assert.deepEqual(await store.claim(ALL, NOW + 3_000), [], 'the request was taken');
  });

  it('claims new messages before retries, at most `retryLimit` retries, and one message of a lane at a time', async () => {
    const store = createQueueFiles(dir);
    const lane = (queued: { message: OutgoingMessage }) => (queued.message.channel === 'mail' && queued.message.mail.subject.startsWith('c') ? 'campaign:c' : undefined);
    const [r1, r2, r3] = await store.add([mail('r1'), mail('r2'), mail('r3')], NOW);
    await store.claim(ALL, NOW);
    for (const [at, message] of [r3, r1, r2].entries()) await store.release(message!.id, { attempts: 1, nextAttemptAt: NOW + at, lastError: 'x' });
    const added = await store.add([mail('c1'), mail('c2'), mail('n1')], NOW + 5, lane);
    const subjects = (claimed: readonly { message: OutgoingMessage }[]) => claimed.map((entry) => (entry.message.channel === 'mail' ? entry.message.mail.subject : ''));
    assert.deepEqual(subjects(await store.claim({ limit: 10, retryLimit: 2 }, NOW + 10)), ['c1', 'n1', 'r3', 'r1']);
    assert.deepEqual(await store.claim({ limit: 10, retryLimit: 0 }, NOW + 10), [], 'c2 waits for c1; r2 for a retry slot');
    await store.complete(added[0]!.id);
    assert.deepEqual(subjects(await store.claim({ limit: 10, retryLimit: 1 }, NOW + 10)), ['c2', 'r2']);
    assert.deepEqual((await store.pending('campaign:c')).map((message) => message.id), [added[1]!.id]);
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
