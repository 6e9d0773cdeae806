// The queue worker (src/queue/queue-worker.ts) over real queue files and a scripted dispatch: sent once,
// retried on temporary failures, given up on permanent ones or when too old, resumed after a restart, new mail
// never behind a backlog, and what `postbox queue drop` / `retry` do to a running queue.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DeliveryFailure } from '../../src/queue/failure.js';
import type { OutgoingMessage, QueuedMessage } from '../../src/queue/outgoing.js';
import { createQueueWorker, type MailQueue, type QueueReport } from '../../src/queue/queue-worker.js';
import type { RetryPolicy } from '../../src/queue/retry-policy.js';
import { createQueueFiles } from '../../src/storage/queue-files.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const FAST: RetryPolicy = { firstDelayMs: 20, maxDelayMs: 80, maxAgeMs: 60_000 };
const mail = (subject: string): OutgoingMessage => ({
  channel: 'mail',
  form: '/contact',
  kind: 'owner',
  mail: { from: 'forms@example.com', to: 'owner@example.com', subject, text: 'hello', autoSubmitted: 'auto-generated' },
});
const subjectOf = (queued: QueuedMessage) => (queued.message.channel === 'mail' ? queued.message.mail.subject : queued.message.channel);
const smtpError = (code: number) => Object.assign(new Error(`${code} refused`), { responseCode: code, response: `${code} 5.1.1 <ada@example.org>: refused` });
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

interface Harness {
  queue: MailQueue;
  sent: string[];
  /** What the next sends do: throw the error, or undefined to succeed. */
  script: Array<unknown>;
  events: Array<[string, string, DeliveryFailure?]>;
}

describe('the queue worker', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const running: MailQueue[] = [];
  /** Added to the real time the queue sees: a test jumps past a message's lifetime without waiting for it. */
  let clockOffset = 0;
  beforeEach(async () => {
    clockOffset = 0;
    ({ dir, remove } = await createTempDir('queue-worker'));
  });
  afterEach(async () => {
    for (const queue of running.splice(0)) await queue.stop(1000);
    await remove();
  });

  async function start(
    options: { policy?: RetryPolicy; concurrency?: number; failWith?: (queued: QueuedMessage) => unknown; dispatch?: (queued: QueuedMessage) => Promise<void> } = {},
  ): Promise<Harness> {
    const harness: Harness = { queue: undefined as unknown as MailQueue, sent: [], script: [], events: [] };
    const report: QueueReport = {
      queued: (messages) => messages.forEach((queued) => harness.events.push(['queued', subjectOf(queued)])),
      delivered: (queued) => harness.events.push(['delivered', subjectOf(queued)]),
      retrying: (queued, failure) => harness.events.push(['retrying', subjectOf(queued), failure]),
      givenUp: (queued, failure) => harness.events.push(['given_up', subjectOf(queued), failure]),
      storageFailed: (action) => harness.events.push(['storage_failed', action]),
    };
    harness.queue = createQueueWorker({
      store: createQueueFiles(dir),
      dispatch:
        options.dispatch ??
        (async (queued) => {
          const failure = options.failWith?.(queued) ?? harness.script.shift();
          if (failure !== undefined) throw failure;
          harness.sent.push(subjectOf(queued));
        }),
      policy: options.policy ?? FAST,
      clock: () => Date.now() + clockOffset,
      random: () => 0.5,
      report,
      concurrency: options.concurrency,
      rescanIntervalMs: 20,
    });
    await harness.queue.start();
    running.push(harness.queue);
    return harness;
  }

  const count = (harness: Harness, kind: string) => harness.events.filter(([event]) => event === kind).length;

  it('sends a queued message once and leaves nothing behind', async () => {
    const harness = await start();
    await harness.queue.enqueue([mail('hello'), mail('receipt')]);
    await waitFor('both sent', () => (harness.sent.length === 2 ? true : undefined));
    await waitFor('nothing pending', () => (harness.queue.counts().pending === 0 ? true : undefined));
    assert.deepEqual(harness.sent.sort(), ['hello', 'receipt']);
    assert.deepEqual(await createQueueFiles(dir).listPending(), []);
  });

  it('retries temporary failures (network, SMTP 4xx, HTTP 429/5xx) until the server accepts', async () => {
    const harness = await start();
    harness.script.push(refused(), smtpError(421), Object.assign(new Error('x'), { reason: 'http_503' }), Object.assign(new Error('x'), { reason: 'http_429' }));
    await harness.queue.enqueue([mail('patient')]);
    await waitFor('sent at last', () => (harness.sent.length === 1 ? true : undefined));
    assert.equal(count(harness, 'retrying'), 4);
    assert.deepEqual(harness.events.filter(([event]) => event === 'retrying').map(([, , failure]) => failure?.reason), ['ECONNREFUSED', 'smtp_421', 'http_503', 'http_429']);
    assert.equal(count(harness, 'given_up'), 0);
  });

  it('never tries one message twice at once, however slow its bookkeeping after a failed try', async () => {
    let inFlight = 0;
    let overlaps = 0;
    let tries = 0;
    const store = createQueueFiles(dir);
    // Writing the record of a failed try takes longer than the retry delay and the rescan period.
    const slowStore = { ...store, recordAttempt: async (...args: Parameters<typeof store.recordAttempt>) => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      return store.recordAttempt(...args);
    } };
    const queue = createQueueWorker({
      store: slowStore,
      dispatch: async () => {
        inFlight += 1;
        if (inFlight > 1) overlaps += 1;
        tries += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        if (tries < 3) throw refused();
      },
      policy: { firstDelayMs: 10, maxDelayMs: 10, maxAgeMs: 60_000 },
      clock: Date.now,
      random: () => 0.5,
      report: { queued() {}, delivered() {}, retrying() {}, givenUp() {}, storageFailed() {} },
      rescanIntervalMs: 5,
    });
    await queue.start();
    running.push(queue);
    await queue.enqueue([mail('once at a time')]);
    await waitFor('sent', () => (queue.counts().pending === 0 ? true : undefined));
    assert.equal(overlaps, 0);
    assert.equal(tries, 3, 'two failed tries, then one that got through: none twice');
  });

  it('moves a message to failed/ at once on a permanent failure, with the reply but not the address', async () => {
    const harness = await start();
    harness.script.push(smtpError(550));
    await harness.queue.enqueue([mail('bounce')]);
    await waitFor('given up', () => (count(harness, 'given_up') === 1 ? true : undefined));
    const [, , failure] = harness.events.find(([event]) => event === 'given_up')!;
    assert.deepEqual(failure, { permanent: true, reason: 'smtp_550', reply: '550 5.1.1 <address>: refused' });
    const counts = harness.queue.counts();
    assert.deepEqual({ pending: counts.pending, failed: counts.failed }, { pending: 0, failed: 1 });
    assert.equal(counts.fsyncs, 4, 'the segment and the failed file: each a file and a folder fsync');
    const [failed] = await createQueueFiles(dir).listFailed();
    assert.equal(failed!.lastError, 'smtp_550: 550 5.1.1 <address>: refused');
    assert.deepEqual(harness.sent, []);
  });

  it('gives a message up once queue_max_hours have passed', async () => {
    const harness = await start({ policy: { firstDelayMs: 20, maxDelayMs: 20, maxAgeMs: 60_000 }, failWith: () => refused() });
    await harness.queue.enqueue([mail('never')]);
    await waitFor('two failed tries', () => (count(harness, 'retrying') >= 2 ? true : undefined));
    assert.equal(count(harness, 'given_up'), 0, 'still within its lifetime');
    clockOffset += 120_000;
    await waitFor('given up', () => (count(harness, 'given_up') === 1 ? true : undefined));
    assert.equal(harness.queue.counts().failed, 1);
  });

  it('resumes after a restart: what was pending is sent by the next process', async () => {
    const first = await start({ failWith: () => refused(), policy: { ...FAST, firstDelayMs: 60_000 } });
    await first.queue.enqueue([mail('one'), mail('two')]);
    await waitFor('both failed once', () => (count(first, 'retrying') === 2 ? true : undefined));
    await first.queue.stop(1000);

    const second = await start();
    await waitFor('both sent after the restart', () => (second.sent.length === 2 ? true : undefined));
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
        await new Promise((resolve) => setTimeout(resolve, 15));
        retriesInFlight -= 1;
        throw refused();
      },
    });
    await harness.queue.enqueue(Array.from({ length: 12 }, (_, index) => mail(`backlog ${index}`)));
    await waitFor('the backlog retried', () => ([...tries.values()].filter((attempts) => attempts >= 3).length >= 12 ? true : undefined));
    const before = order.length;
    await harness.queue.enqueue([mail('new')]);
    await waitFor('the new mail tried', () => (tries.get('new') === 1 ? true : undefined));
    // Only sends already started (at most the two retry slots) may come between the queueing and the new mail.
    assert.ok(order.indexOf('new', before) - before <= 2, `new mail waited behind ${order.indexOf('new', before) - before} retries`);
    assert.equal(mostRetriesInFlight, 2, 'retries held half of the four slots, never more');
  });

  it('does not send a message that `postbox queue drop` removed while it waited', async () => {
    const harness = await start({ failWith: () => refused(), policy: { ...FAST, firstDelayMs: 60_000 } });
    await harness.queue.enqueue([mail('drop me')]);
    await waitFor('failed once', () => (count(harness, 'retrying') === 1 ? true : undefined));
    const cli = createQueueFiles(dir);
    const [pending] = await cli.listPending();
    assert.equal(await cli.drop(pending!.id), 'pending');
    // Ask for every waiting message to be tried now: the dropped one is forgotten instead.
    await cli.requestRetry();
    await waitFor('forgotten', () => (harness.queue.counts().pending === 0 ? true : undefined));
    assert.equal(count(harness, 'retrying'), 1, 'not tried again');
  });

  it('picks up a message that `postbox queue retry` put back, and tries waiting ones now on request', async () => {
    let accept = false;
    const harness = await start({ failWith: () => (accept ? undefined : smtpError(550)), policy: { ...FAST, firstDelayMs: 60_000 } });
    await harness.queue.enqueue([mail('bounced')]);
    await waitFor('given up', () => (harness.queue.counts().failed === 1 ? true : undefined));
    accept = true;
    const cli = createQueueFiles(dir);
    const [failed] = await cli.listFailed();
    assert.equal(await cli.retryFailed(failed!.id, Date.now()), true);
    await waitFor('sent after the retry', () => (harness.sent.includes('bounced') ? true : undefined));
    await waitFor('failed count refreshed', () => (harness.queue.counts().failed === 0 ? true : undefined));
  });
});
