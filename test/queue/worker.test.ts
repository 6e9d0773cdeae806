// The queue worker (src/queue/worker.ts) over real queue files, a scripted dispatch and fake time: sent once,
// retried on temporary failures, given up on permanent ones or when too old, resumed after a restart, new mail
// never behind a backlog, lanes one at a time, draining on stop, what `postbox queue drop` / `retry` do to a
// running queue, and counts that stay exact while all of that runs.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DeliveryFailure } from '../../src/queue/failure.js';
import { campaignLaneOf, type OutgoingMessage, type QueuedMessage, type QueueOutcome } from '../../src/queue/outgoing.js';
import type { RetryPolicy } from '../../src/queue/retry-policy.js';
import type { QueueStore } from '../../src/queue/store.js';
import { createQueueWorker, type DeliveryQueue, type QueueReport } from '../../src/queue/worker.js';
import { createQueueFiles } from '../../src/adapters/files/queue-files.js';
import { createTempDir } from '../support/temp-dir.js';
import { createFakeTimer, type FakeTimer } from '../support/fake-timers.js';

const FAST: RetryPolicy = { firstDelayMs: 1_000, maxDelayMs: 4_000, maxAgeMs: 600_000 };
/** How often the store reads the folder for what `postbox queue` did. */
const RESCAN_MS = 2_000;
const mail = (subject: string, recipient?: { campaign: string; index: number }): OutgoingMessage => ({
  channel: 'mail',
  form: '/contact',
  kind: recipient ? 'newsletter' : 'owner',
  mail: { from: 'forms@example.com', to: 'owner@example.com', subject, text: 'hello', autoSubmitted: 'auto-generated' },
  ...(recipient ? { recipient } : {}),
});
const subjectOf = (queued: QueuedMessage) => (queued.message.channel === 'mail' ? queued.message.mail.subject : queued.message.channel);
const smtpError = (code: number) => Object.assign(new Error(`${code} refused`), { responseCode: code, response: `${code} 5.1.1 <ada@example.org>: refused` });
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

interface Harness {
  queue: DeliveryQueue;
  store: QueueStore;
  sent: string[];
  /** What the next sends do: throw the error, or undefined to succeed. */
  script: Array<unknown>;
  events: Array<[string, string, DeliveryFailure?]>;
  settled: Array<[string, QueueOutcome]>;
}

interface StartOptions {
  policy?: RetryPolicy;
  concurrency?: number;
  rescanIntervalMs?: number;
  failWith?: (queued: QueuedMessage) => unknown;
  dispatch?: (queued: QueuedMessage) => Promise<void>;
  wrapStore?: (store: QueueStore) => QueueStore;
  onGivenUp?: () => void;
}

describe('the queue worker', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let timer: FakeTimer;
  const running: DeliveryQueue[] = [];
  const cliStores: QueueStore[] = [];
  beforeEach(async () => {
    timer = createFakeTimer();
    ({ dir, remove } = await createTempDir('queue-worker'));
  });
  afterEach(async () => {
    for (const queue of running.splice(0)) {
      const stopping = queue.stop(1_000);
      await timer.advance(1_000);
      await stopping;
    }
    for (const store of cliStores.splice(0)) await store.close();
    await remove();
  });

  /** A store over the same folder, as `postbox queue` in another process opens it. */
  const cli = () => {
    const store = createQueueFiles(dir);
    cliStores.push(store);
    return store;
  };

  async function start(options: StartOptions = {}): Promise<Harness> {
    const files = timer.track(createQueueFiles(dir, { rescanIntervalMs: options.rescanIntervalMs ?? RESCAN_MS }));
    const store = options.wrapStore?.(files) ?? files;
    const harness: Harness = { queue: undefined as unknown as DeliveryQueue, store, sent: [], script: [], events: [], settled: [] };
    const report: QueueReport = {
      queued: (messages) => messages.forEach((queued) => harness.events.push(['queued', subjectOf(queued)])),
      delivered: (queued) => harness.events.push(['delivered', subjectOf(queued)]),
      retrying: (queued, failure) => harness.events.push(['retrying', subjectOf(queued), failure]),
      givenUp: (queued, failure) => {
        harness.events.push(['given_up', subjectOf(queued), failure]);
        options.onGivenUp?.();
      },
      storageFailed: (action) => harness.events.push(['storage_failed', action]),
    };
    harness.queue = createQueueWorker({
      store,
      dispatch:
        options.dispatch ??
        (async (queued) => {
          const failure = options.failWith?.(queued) ?? harness.script.shift();
          if (failure !== undefined) throw failure;
          harness.sent.push(subjectOf(queued));
        }),
      policy: options.policy ?? FAST,
      timer,
      random: () => 0.5,
      report,
      concurrency: options.concurrency,
      laneOf: campaignLaneOf,
      settled: async (queued, outcome) => {
        harness.settled.push([subjectOf(queued), outcome]);
      },
    });
    await harness.queue.start();
    running.push(harness.queue);
    return harness;
  }

  const count = (harness: Harness, kind: string) => harness.events.filter(([event]) => event === kind).length;
  const reached = (condition: boolean) => (condition ? true : undefined);

  it('sends a queued message once and leaves nothing behind', async () => {
    const harness = await start();
    await harness.queue.enqueue([mail('hello'), mail('receipt')]);
    await timer.until('both sent', () => reached(harness.sent.length === 2 && harness.queue.counts().pending === 0));
    assert.deepEqual(harness.sent.sort(), ['hello', 'receipt']);
    assert.deepEqual(await cli().listPending(), []);
  });

  it('retries temporary failures (network, SMTP 4xx, HTTP 429/5xx) until the server accepts, on the policy\'s schedule', async () => {
    const triedAt: number[] = [];
    const script: unknown[] = [refused(), smtpError(421), Object.assign(new Error('x'), { reason: 'http_503' }), Object.assign(new Error('x'), { reason: 'http_429' })];
    const harness = await start({
      dispatch: async (queued) => {
        triedAt.push(timer.now());
        const failure = script.shift();
        if (failure !== undefined) throw failure;
        harness.sent.push(subjectOf(queued));
      },
    });
    await harness.queue.enqueue([mail('patient')]);
    for (let step = 0; step < 100 && harness.sent.length === 0; step += 1) await timer.advance(250);
    assert.deepEqual(harness.sent, ['patient']);
    // 1 s, then twice as long each time up to the 4 s ceiling (no jitter with random 0.5); claimed at the next poll.
    const gaps = triedAt.slice(1).map((at, index) => at - triedAt[index]!);
    const expected = [1_000, 2_000, 4_000, 4_000];
    gaps.forEach((gap, index) => assert.ok(gap >= expected[index]! && gap <= expected[index]! + 250, `gap ${index + 1}: ${gap} ms`));
    assert.deepEqual(harness.events.filter(([event]) => event === 'retrying').map(([, , failure]) => failure?.reason), ['ECONNREFUSED', 'smtp_421', 'http_503', 'http_429']);
    assert.equal(count(harness, 'given_up'), 0);
  });

  it('never tries one message twice at once, however slow its bookkeeping after a failed try', async () => {
    let inFlight = 0;
    let overlaps = 0;
    let tries = 0;
    const harness = await start({
      policy: { firstDelayMs: 100, maxDelayMs: 100, maxAgeMs: 600_000 },
      // Writing the record of a failed try takes longer than the retry delay and the poll.
      wrapStore: (store) => ({
        ...store,
        release: async (...args: Parameters<QueueStore['release']>) => {
          await new Promise((resolve) => timer.setTimeout(() => resolve(undefined), 1_000));
          return store.release(...args);
        },
      }),
      dispatch: async () => {
        inFlight += 1;
        if (inFlight > 1) overlaps += 1;
        tries += 1;
        await nextTurn();
        inFlight -= 1;
        if (tries < 3) throw refused();
      },
    });
    await harness.queue.enqueue([mail('once at a time')]);
    for (let step = 0; step < 20 && harness.queue.counts().pending > 0; step += 1) await timer.advance(250);
    await timer.until('sent', () => reached(harness.queue.counts().pending === 0));
    assert.equal(overlaps, 0);
    assert.equal(tries, 3, 'two failed tries, then one that got through: none twice');
  });

  it('moves a message to failed/ at once on a permanent failure, with the reply but not the address', async () => {
    const harness = await start();
    harness.script.push(smtpError(550));
    await harness.queue.enqueue([mail('bounce')]);
    await timer.until('given up', () => reached(count(harness, 'given_up') === 1));
    const [, , failure] = harness.events.find(([event]) => event === 'given_up')!;
    assert.deepEqual(failure, { permanent: true, reason: 'smtp_550', reply: '550 5.1.1 <address>: refused' });
    const counts = harness.queue.counts();
    assert.deepEqual({ pending: counts.pending, failed: counts.failed }, { pending: 0, failed: 1 });
    assert.equal(counts.fsyncs, 4, 'the segment and the failed file: each a file and a folder fsync');
    const [failed] = await cli().listFailed();
    assert.equal(failed!.lastError, 'smtp_550: 550 5.1.1 <address>: refused');
    assert.deepEqual(harness.sent, []);
    assert.deepEqual(harness.settled, [['bounce', 'failed']]);
  });

  it('gives a message up once queue_max_hours have passed', async () => {
    const policy = { firstDelayMs: 20_000, maxDelayMs: 20_000, maxAgeMs: 60_000 };
    const harness = await start({ policy, failWith: () => refused() });
    await harness.queue.enqueue([mail('never')]);
    await timer.until('one failed try', () => reached(count(harness, 'retrying') === 1));
    await timer.advance(25_000);
    await timer.until('two failed tries', () => reached(count(harness, 'retrying') === 2));
    assert.equal(count(harness, 'given_up'), 0, 'still within its lifetime');
    for (let step = 0; step < 6 && count(harness, 'given_up') === 0; step += 1) await timer.advance(25_000);
    await timer.until('given up', () => reached(count(harness, 'given_up') === 1));
    assert.equal(harness.queue.counts().failed, 1);
  });

  it('resumes after a restart: what was pending is tried at once by the next process', async () => {
    const first = await start({ failWith: () => refused(), policy: { ...FAST, firstDelayMs: 60_000 } });
    await first.queue.enqueue([mail('one'), mail('two')]);
    await timer.until('both failed once', () => reached(count(first, 'retrying') === 2));
    const stopping = first.queue.stop(1_000);
    await timer.advance(1_000);
    await stopping;

    const second = await start();
    await timer.until('both sent after the restart, without waiting for their retry time', () => reached(second.sent.length === 2));
    assert.deepEqual(second.sent.sort(), ['one', 'two']);
  });

  it('sends new mail first, and retries of a backlog never hold more than half of the slots', async () => {
    const tries = new Map<string, number>();
    const order: string[] = [];
    let retriesInFlight = 0;
    let mostRetriesInFlight = 0;
    const harness = await start({
      concurrency: 4,
      dispatch: async (queued) => {
        const subject = subjectOf(queued);
        const attempt = (tries.get(subject) ?? 0) + 1;
        tries.set(subject, attempt);
        order.push(subject);
        if (attempt === 1) {
          if (subject.startsWith('backlog')) throw refused();
          return;
        }
        retriesInFlight += 1;
        mostRetriesInFlight = Math.max(mostRetriesInFlight, retriesInFlight);
        await new Promise((resolve) => timer.setTimeout(() => resolve(undefined), 100));
        retriesInFlight -= 1;
        throw refused();
      },
    });
    await harness.queue.enqueue(Array.from({ length: 12 }, (_, index) => mail(`backlog ${index}`)));
    await timer.until('the backlog failed once', () => reached(count(harness, 'retrying') === 12));
    for (let step = 0; step < 200 && [...tries.values()].filter((attempts) => attempts >= 3).length < 12; step += 1) await timer.advance(100);
    assert.equal([...tries.values()].filter((attempts) => attempts >= 3).length, 12, `the backlog retried: ${JSON.stringify([...tries])} ${JSON.stringify(harness.events.filter(([e]) => e === "storage_failed"))} pending ${harness.queue.counts().pending}`);
    const before = order.length;
    await harness.queue.enqueue([mail('new')]);
    await timer.until('the new mail tried', () => reached(tries.get('new') === 1));
    // Only sends already started (at most the two retry slots) may come between the queueing and the new mail.
    assert.ok(order.indexOf('new', before) - before <= 2, `new mail waited behind ${order.indexOf('new', before) - before} retries`);
    assert.equal(mostRetriesInFlight, 2, 'retries held half of the four slots, never more');
  });

  it('sends the messages of a lane one at a time, in the order queued', async () => {
    let campaignInFlight = 0;
    let mostInFlight = 0;
    const order: string[] = [];
    const harness = await start({
      dispatch: async (queued) => {
        const laned = campaignLaneOf(queued) !== undefined;
        if (laned) campaignInFlight += 1;
        mostInFlight = Math.max(mostInFlight, campaignInFlight);
        order.push(subjectOf(queued));
        await new Promise((resolve) => timer.setTimeout(() => resolve(undefined), 50));
        if (laned) campaignInFlight -= 1;
      },
    });
    await harness.queue.enqueue([...Array.from({ length: 4 }, (_, index) => mail(`c${index}`, { campaign: 'c1', index })), mail('owner')]);
    for (let step = 0; step < 20 && harness.queue.counts().pending > 0; step += 1) await timer.advance(50);
    assert.equal(harness.queue.counts().pending, 0);
    assert.equal(mostInFlight, 1);
    assert.deepEqual(order.filter((subject) => subject.startsWith('c')), ['c0', 'c1', 'c2', 'c3']);
  });

  it('on stop, still tries new messages within the grace while retries wait for the next start', async () => {
    let failedOnce = false;
    const harness = await start({
      // One slot: what is queued while a send runs waits for it.
      concurrency: 1,
      policy: { ...FAST, firstDelayMs: 1_000 },
      dispatch: async (queued) => {
        const subject = subjectOf(queued);
        if (subject === 'retry later' && !failedOnce) {
          failedOnce = true;
          throw refused();
        }
        if (subject === 'slow') await new Promise((resolve) => timer.setTimeout(() => resolve(undefined), 500));
        harness.sent.push(subject);
      },
    });
    await harness.queue.enqueue([mail('retry later')]);
    await timer.until('failed once', () => reached(failedOnce && harness.queue.counts().pending === 1));
    // The retry falls due while the slow send holds the only slot; then a new message is queued and the stop comes.
    const slow = harness.queue.enqueue([mail('slow')]);
    await slow;
    await timer.until('the slow send under way', () => reached(harness.events.filter(([event]) => event === 'queued').length === 2));
    await timer.advance(400);
    await harness.queue.enqueue([mail('last minute')]);
    const stopping = harness.queue.stop(1_000);
    await timer.advance(1_000);
    await stopping;
    running.splice(running.indexOf(harness.queue), 1);
    assert.deepEqual(harness.sent, ['slow', 'last minute'], 'the new message was tried within the grace, the due retry was not');
    assert.deepEqual((await cli().listPending()).map(subjectOf), ['retry later']);
  });

  it('does not send a message that `postbox queue drop` removed while it waited, and tells `settled` it failed', async () => {
    const harness = await start({ failWith: () => refused(), policy: { ...FAST, firstDelayMs: 60_000 } });
    await harness.queue.enqueue([mail('drop me')]);
    await timer.until('failed once', () => reached(count(harness, 'retrying') === 1));
    const other = cli();
    const [pending] = await other.listPending();
    assert.equal(await other.drop(pending!.id), 'pending');
    // Ask for every waiting message to be tried now: the dropped one is forgotten instead.
    await other.requestRetry();
    await timer.advance(RESCAN_MS);
    await timer.until('forgotten', () => reached(harness.queue.counts().pending === 0));
    assert.equal(count(harness, 'retrying'), 1, 'not tried again');
    assert.deepEqual(harness.settled, [['drop me', 'failed']]);
    assert.deepEqual(await other.listPending(), []);
  });

  it('picks up a message that `postbox queue retry` put back, and counts it', async () => {
    let accept = false;
    const harness = await start({ failWith: () => (accept ? undefined : smtpError(550)) });
    await harness.queue.enqueue([mail('bounced')]);
    await timer.until('given up', () => reached(harness.queue.counts().failed === 1));
    accept = true;
    const other = cli();
    const [failed] = await other.listFailed();
    assert.equal(await other.retryFailed(failed!.id, timer.now()), true);
    await timer.advance(RESCAN_MS);
    await timer.until('sent after the retry', () => reached(harness.sent.includes('bounced')));
    assert.equal(harness.queue.counts().failed, 0);
  });

  it('keeps the failed count exact while messages fail and rescans and retry requests run', async () => {
    const total = 40;
    let givenUp = 0;
    let atLast = -1;
    let harness: Harness | undefined;
    harness = await start({
      // Every claim reads the folder again: its count of failed/ overlaps the moves there.
      rescanIntervalMs: 0,
      failWith: () => smtpError(550),
      onGivenUp: () => {
        givenUp += 1;
        if (givenUp === total) atLast = harness!.queue.counts().failed;
      },
    });
    const other = cli();
    let poking = true;
    const pokes = (async () => {
      while (poking) {
        await other.requestRetry();
        await nextTurn();
      }
    })();
    for (let index = 0; index < total; index += 1) {
      await harness.queue.enqueue([mail(`bounce ${index}`)]);
      if (index % 3 === 0) await nextTurn();
    }
    await timer.until('every message given up', () => reached(givenUp === total));
    poking = false;
    await pokes;
    assert.equal((await other.listFailed()).length, total);
    assert.equal(atLast, total, 'counts().failed when the last message was given up');
    await timer.advance(1_000);
    assert.deepEqual({ ...harness.queue.counts(), fsyncs: 0 }, { pending: 0, failed: total, fsyncs: 0 });
  });
});
