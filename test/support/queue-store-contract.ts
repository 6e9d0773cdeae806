// The QueueStore contract (src/queue/store.ts), run on each backend by its own test file
// (test/adapters/files/queue-files-contract.test.ts, test/adapters/postgres/queue-store-contract.test.ts): messages
// queued are claimed once each, in the order queued, and held until settled or until their lease runs out; a
// temporary failure keeps its tries and is not claimed before its next try's time; a given-up message is failed,
// counted and listed, and `postbox queue retry|drop` put it back or remove it; new messages go before retries and
// at most `retryLimit` retries are claimed; a lane has one message in flight; a store opened again over the same
// data finds what was not settled; a burst of concurrent claims never hands one message to two claimers.
// `open(clock)` gives the store that claims, a second claimer (another replica on PostgreSQL; the same store on
// the files, whose data_dir one process owns), the owner's store (`postbox queue ...` in another process) and a
// way to open the store again (a restart). Time is the test's: every call is handed it, and the clock gives it to
// what reads one (`requestRetry`).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { campaignLaneOf, type OutgoingMessage, type QueuedMessage } from '../../src/queue/outgoing.js';
import type { ClaimedMessage, QueueStore } from '../../src/queue/store.js';
import { createTestClock, type TestClock } from './clock.js';

/** The time the contract's messages are queued at: 2026-11-23T12:00:00Z. */
export const QUEUE_T0 = Date.UTC(2026, 10, 23, 12);
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A claim of everything due. */
const ALL = { limit: 100, retryLimit: 100 };

/** The stores one test works with, over data of its own. */
export interface QueueStores {
  /** The store that claims and sends (`serve`'s worker). */
  store: QueueStore;
  /** A second claimer over the same data: another replica (PostgreSQL), or `store` itself (the files). */
  other: QueueStore;
  /** `postbox queue list|retry|drop` in another process: a store over the same data that never claims. */
  owner: QueueStore;
  /** A new store over the same data, as after a restart of the process of `store`. */
  reopen(): Promise<QueueStore>;
}

export type OpenQueueStores = (clock: () => number) => Promise<QueueStores>;

/** An owner mail, told apart by its subject; a campaign's when `recipient` is given. */
export function queueMail(subject: string, recipient?: { campaign: string; index: number }): OutgoingMessage {
  return {
    channel: 'mail',
    form: '/contact',
    kind: recipient ? 'newsletter' : 'owner',
    mail: { from: 'forms@example.com', to: 'owner@example.com', subject, text: 'Hello.', autoSubmitted: 'auto-generated' },
    ...(recipient ? { recipient } : {}),
  };
}

const subjectOf = (queued: { message: OutgoingMessage }) => (queued.message.channel === 'mail' ? queued.message.mail.subject : '');
const subjects = (claimed: readonly { message: OutgoingMessage }[]) => claimed.map(subjectOf);
const idsOf = (messages: readonly { id: string }[]) => messages.map((message) => message.id);
/** A claimed message as `claim` gives a message queued at `queued.createdAt`. */
const claimedAs = (queued: QueuedMessage, attempts: number, retry: boolean): ClaimedMessage => ({ ...queued, attempts, retry });
/** The time by which a lease taken at `at` has surely run out (files: leases never run out, so any time). */
const afterLease = (store: QueueStore, at: number) => (Number.isFinite(store.leaseMs) ? at + store.leaseMs : at + DAY_MS);

/** Claims until nothing more comes, completing each message it gets that was dropped; the others' subjects. */
async function claimAllSettlingDropped(store: QueueStore, now: number): Promise<ClaimedMessage[]> {
  const kept: ClaimedMessage[] = [];
  for (;;) {
    const claimed = await store.claim(ALL, now);
    if (claimed.length === 0) return kept;
    for (const message of claimed) {
      if (message.dropped) await store.complete(message.id);
      else kept.push(message);
    }
  }
}

export function queueStoreContract(open: OpenQueueStores): void {
  const start = async (): Promise<QueueStores & { clock: TestClock }> => {
    const clock = createTestClock(QUEUE_T0);
    return { ...(await open(clock)), clock };
  };

  it('claims each queued message once, in the order queued, and forgets a completed one', async () => {
    const { store, owner } = await start();
    const added = await store.add([queueMail('a'), queueMail('b'), queueMail('c')], QUEUE_T0);
    assert.deepEqual(
      added.map((message) => [message.createdAt, subjectOf(message)]),
      [
        [QUEUE_T0, 'a'],
        [QUEUE_T0, 'b'],
        [QUEUE_T0, 'c'],
      ],
    );
    assert.equal(new Set(idsOf(added)).size, 3, 'each message has its own id');
    assert.deepEqual(await store.counts(), { pending: 3, failed: 0 });
    assert.deepEqual(idsOf(await store.pending()), idsOf(added));

    assert.deepEqual(await store.claim({ limit: 2, retryLimit: 2 }, QUEUE_T0), [claimedAs(added[0]!, 0, false), claimedAs(added[1]!, 0, false)]);
    assert.deepEqual(await store.claim(ALL, QUEUE_T0), [claimedAs(added[2]!, 0, false)]);
    assert.deepEqual(await store.claim(ALL, QUEUE_T0 + 1), [], 'every one is held');
    assert.deepEqual(await store.claim({ limit: 0, retryLimit: 0 }, QUEUE_T0), []);
    assert.deepEqual(idsOf(await store.pending()), idsOf(added), 'being sent is still pending');

    await store.complete(added[1]!.id);
    assert.deepEqual(await store.counts(), { pending: 2, failed: 0 });
    assert.deepEqual(idsOf(await owner.listPending()), [added[0]!.id, added[2]!.id]);
    assert.deepEqual(await store.add([], QUEUE_T0), []);
  });

  it('holds a claimed message until its lease runs out, longer when extended, and then lets another claimer take it', async () => {
    const { store, other } = await start();
    const [message] = await store.add([queueMail('leased')], QUEUE_T0);
    assert.equal((await store.claim(ALL, QUEUE_T0)).length, 1);
    assert.deepEqual(await other.claim(ALL, QUEUE_T0), [], 'held');
    if (!Number.isFinite(store.leaseMs)) {
      // Leases in memory end with the process only (a restart, below).
      assert.deepEqual(await other.claim(ALL, QUEUE_T0 + DAY_MS), [], 'held for as long as the process runs');
      return;
    }
    const lease = store.leaseMs;
    assert.deepEqual(await other.claim(ALL, QUEUE_T0 + lease - 1), [], 'held until the lease runs out');
    await store.extend([message!.id], QUEUE_T0 + lease - 1);
    assert.deepEqual(await other.claim(ALL, QUEUE_T0 + lease), [], 'extended');
    const ranOut = QUEUE_T0 + 2 * lease - 1;
    assert.deepEqual(await other.claim(ALL, ranOut), [claimedAs(message!, 0, false)], 'taken once the extended lease ran out');
    // The first claimer comes back late: its settling no longer touches what the other holds.
    await store.release(message!.id, { attempts: 1, nextAttemptAt: ranOut, lastError: 'timeout' });
    await store.fail(message!.id, { attempts: 1, nextAttemptAt: ranOut, lastError: 'timeout' }, ranOut);
    assert.deepEqual(await store.claim(ALL, ranOut), [], 'still the other claimer\'s');
    assert.deepEqual(await store.counts(), { pending: 1, failed: 0 });
    await other.complete(message!.id);
    assert.deepEqual(await store.counts(), { pending: 0, failed: 0 });
  });

  it('keeps a temporary failure\'s tries: not claimed before its next try\'s time, then claimed as a retry', async () => {
    const { store, owner } = await start();
    const [message] = await store.add([queueMail('later')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    const attempt = { attempts: 1, nextAttemptAt: QUEUE_T0 + 5 * MINUTE_MS, lastError: 'smtp_451: 451 try later' };
    await store.release(message!.id, attempt);
    assert.deepEqual(await owner.listPending(), [{ ...message!, attempt }], 'listed with its tries');
    assert.deepEqual(await store.counts(), { pending: 1, failed: 0 });
    assert.deepEqual(await store.claim(ALL, attempt.nextAttemptAt - 1), [], 'not before its time');
    assert.deepEqual(await store.claim(ALL, attempt.nextAttemptAt), [claimedAs(message!, 1, true)], 'at its time, as a retry');
    const second = { attempts: 2, nextAttemptAt: QUEUE_T0 + 20 * MINUTE_MS, lastError: 'ECONNREFUSED' };
    await store.release(message!.id, second);
    assert.deepEqual(await store.claim(ALL, second.nextAttemptAt - 1), []);
    assert.deepEqual(await store.claim(ALL, second.nextAttemptAt + MINUTE_MS), [claimedAs(message!, 2, true)]);
  });

  it('claims new messages before retries, retries in the order of their time, and at most `retryLimit` retries', async () => {
    const { store } = await start();
    const [r1, r2, r3] = await store.add([queueMail('r1'), queueMail('r2'), queueMail('r3')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    for (const [at, message] of [r3, r1, r2].entries()) await store.release(message!.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + at, lastError: 'x' });
    await store.add([queueMail('n1'), queueMail('n2')], QUEUE_T0 + 5);
    const now = QUEUE_T0 + 10;
    assert.deepEqual(subjects(await store.claim({ limit: 3, retryLimit: 3 }, now)), ['n1', 'n2', 'r3']);
    assert.deepEqual(await store.claim({ limit: 3, retryLimit: 0 }, now), [], 'no room for retries');
    assert.deepEqual(subjects(await store.claim({ limit: 3, retryLimit: 1 }, now)), ['r1']);
    assert.deepEqual(subjects(await store.claim({ limit: 1, retryLimit: 3 }, now)), ['r2']);
  });

  it('keeps a given-up message as failed: counted, listed with its last error, and never claimed', async () => {
    const { store, owner } = await start();
    const [lost, kept] = await store.add([queueMail('lost'), queueMail('kept')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    await store.fail(lost!.id, { attempts: 3, nextAttemptAt: QUEUE_T0, lastError: 'smtp_550: 550 <address> unknown' }, QUEUE_T0 + 5);
    assert.deepEqual(await store.counts(), { pending: 1, failed: 1 });
    assert.equal(await store.countFailed(), 1);
    assert.equal(await owner.countFailed(), 1, 'the owner\'s count');
    assert.deepEqual(await owner.listFailed(), [
      { ...lost!, failedAt: QUEUE_T0 + 5, attempts: 3, lastError: 'smtp_550: 550 <address> unknown' },
    ]);
    assert.deepEqual(idsOf(await owner.listPending()), [kept!.id]);
    assert.deepEqual(idsOf(await store.pending()), [kept!.id]);
    await store.release(kept!.id, { attempts: 1, nextAttemptAt: QUEUE_T0, lastError: 'x' });
    assert.deepEqual(idsOf(await store.claim(ALL, QUEUE_T0 + DAY_MS)), [kept!.id], 'only the pending one');
  });

  it('puts a failed message back with its id and a new lifetime (`postbox queue retry ID`)', async () => {
    const { store, owner } = await start();
    const [message, waiting] = await store.add([queueMail('bounced'), queueMail('waiting')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    await store.fail(message!.id, { attempts: 2, nextAttemptAt: QUEUE_T0, lastError: 'smtp_550' }, QUEUE_T0 + 5);
    await store.release(waiting!.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + DAY_MS, lastError: 'x' });
    const retriedAt = QUEUE_T0 + MINUTE_MS;
    assert.equal(await owner.retryFailed('msg_nothing', retriedAt), false, 'no such message');
    assert.equal(await owner.retryFailed(waiting!.id, retriedAt), false, 'not a failed one');
    assert.equal(await owner.retryFailed(message!.id, retriedAt), true);
    assert.equal(await owner.retryFailed(message!.id, retriedAt), false, 'no longer failed');
    assert.deepEqual(await owner.listFailed(), []);
    assert.equal(await store.countFailed(), 0);
    assert.deepEqual(await store.claim(ALL, retriedAt), [claimedAs({ ...message!, createdAt: retriedAt }, 0, false)], 'due at once, as new');
    assert.deepEqual(await store.counts(), { pending: 2, failed: 0 });
  });

  it('drops a failed or a pending message for good (`postbox queue drop ID`): a dropped one is never sent', async () => {
    const { store, owner } = await start();
    const [bounced, retrying, waiting, kept] = await store.add([queueMail('bounced'), queueMail('retrying'), queueMail('waiting'), queueMail('kept')], QUEUE_T0);
    await store.claim({ limit: 2, retryLimit: 2 }, QUEUE_T0);
    await store.fail(bounced!.id, { attempts: 1, nextAttemptAt: QUEUE_T0, lastError: 'smtp_550' }, QUEUE_T0);
    await store.release(retrying!.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + MINUTE_MS, lastError: 'x' });
    assert.equal(await owner.drop(bounced!.id), 'failed');
    assert.equal(await owner.drop(retrying!.id), 'pending', 'a retry waiting for its time');
    assert.equal(await owner.drop(waiting!.id), 'pending', 'a new message not claimed yet');
    assert.equal(await owner.drop(waiting!.id), undefined, 'already dropped');
    assert.equal(await owner.drop('msg_nothing'), undefined);
    assert.deepEqual(idsOf(await owner.listPending()), [kept!.id]);
    assert.deepEqual(await owner.listFailed(), []);
    // A claiming store may still hand a dropped message out, marked so: the worker then only completes it.
    assert.deepEqual(idsOf(await claimAllSettlingDropped(store, QUEUE_T0 + DAY_MS)), [kept!.id]);
    assert.deepEqual(await store.counts(), { pending: 1, failed: 0 });
  });

  it('makes every waiting message due now once `postbox queue retry` asks', async () => {
    const { store, owner, clock } = await start();
    const [message] = await store.add([queueMail('later')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    await store.release(message!.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + DAY_MS, lastError: 'ECONNREFUSED' });
    assert.deepEqual(await store.claim(ALL, QUEUE_T0 + MINUTE_MS), [], 'not due yet');
    clock.set(QUEUE_T0 + 2 * MINUTE_MS);
    await owner.requestRetry();
    assert.deepEqual(await store.claim(ALL, QUEUE_T0 + 3 * MINUTE_MS), [claimedAs(message!, 1, true)]);
    await store.release(message!.id, { attempts: 2, nextAttemptAt: QUEUE_T0 + DAY_MS, lastError: 'ECONNREFUSED' });
    assert.deepEqual(await store.claim(ALL, QUEUE_T0 + 4 * MINUTE_MS), [], 'the request was taken');
  });

  it('leases one message of a lane at a time, across claimers, in the order queued', async () => {
    const { store, other } = await start();
    const campaign = (index: number) => queueMail(`c${index}`, { campaign: 'c', index });
    const added = await store.add([campaign(0), campaign(1), campaign(2), queueMail('plain')], QUEUE_T0, campaignLaneOf);
    await store.add([queueMail('d0', { campaign: 'd', index: 0 }), queueMail('d1', { campaign: 'd', index: 1 })], QUEUE_T0, campaignLaneOf);
    assert.deepEqual(subjects(await store.claim(ALL, QUEUE_T0)).sort(), ['c0', 'd0', 'plain']);
    assert.deepEqual(await other.claim(ALL, QUEUE_T0), [], 'each lane waits for its message in flight');
    assert.deepEqual(idsOf(await store.pending('campaign:c')), idsOf(added.slice(0, 3)));
    await store.complete(added[0]!.id);
    const [c1] = await other.claim(ALL, QUEUE_T0);
    assert.equal(subjectOf(c1!), 'c1');
    // A retry waiting for its time does not hold up the rest of its lane; once due, it waits for the lane.
    await other.release(c1!.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + 1_000, lastError: 'smtp_451' });
    const [c2] = await store.claim(ALL, QUEUE_T0);
    assert.equal(subjectOf(c2!), 'c2');
    assert.deepEqual(await other.claim(ALL, QUEUE_T0 + 1_000), [], 'c1 is due, and waits for c2');
    await store.complete(c2!.id);
    assert.deepEqual(await other.claim(ALL, QUEUE_T0 + 1_000), [claimedAs(added[1]!, 1, true)]);
    assert.deepEqual(idsOf(await store.pending('campaign:c')), [added[1]!.id]);
    assert.deepEqual(await store.pending('campaign:none'), []);
  });

  it('finds, when opened again, what was queued and not settled, with its tries, and the failed ones', async () => {
    const { store, reopen } = await start();
    const [sent, retrying, lost, inFlight] = await store.add([queueMail('sent'), queueMail('retrying'), queueMail('lost'), queueMail('in flight')], QUEUE_T0);
    await store.claim(ALL, QUEUE_T0);
    const [waiting] = await store.add([queueMail('waiting', { campaign: 'c', index: 0 })], QUEUE_T0 + 1, campaignLaneOf);
    await store.complete(sent!.id);
    const attempt = { attempts: 2, nextAttemptAt: QUEUE_T0 + 5 * MINUTE_MS, lastError: 'smtp_421' };
    await store.release(retrying!.id, attempt);
    await store.fail(lost!.id, { attempts: 1, nextAttemptAt: QUEUE_T0, lastError: 'smtp_550' }, QUEUE_T0 + 2);

    const restarted = await reopen();
    assert.deepEqual(await restarted.counts(), { pending: 3, failed: 1 });
    const unsettled = [retrying!.id, inFlight!.id, waiting!.id].sort();
    assert.deepEqual(idsOf(await restarted.pending()).sort(), unsettled);
    assert.deepEqual(idsOf(await restarted.pending('campaign:c')), [waiting!.id], 'with its lane');
    const listed = await restarted.listPending();
    assert.deepEqual(idsOf(listed).sort(), unsettled);
    assert.deepEqual(listed.find((message) => message.id === retrying!.id)?.attempt, attempt, 'with its tries');
    assert.deepEqual(idsOf(await restarted.listFailed()), [lost!.id]);
    const later = Math.max(afterLease(store, QUEUE_T0), attempt.nextAttemptAt);
    const claimed = await restarted.claim(ALL, later);
    assert.deepEqual(
      claimed.map((message) => [message.id, message.createdAt, message.attempts]).sort(),
      [
        [inFlight!.id, QUEUE_T0, 0],
        [retrying!.id, QUEUE_T0, 2],
        [waiting!.id, QUEUE_T0 + 1, 0],
      ].sort(),
      'each once, with its tries',
    );
    assert.deepEqual(await restarted.claim(ALL, later), []);
    for (const message of claimed) await restarted.complete(message.id);
    assert.deepEqual(await (await reopen()).counts(), { pending: 0, failed: 1 });
  });

  it('keeps a lane in the order queued when opened again, also for messages queued one call at a time', async () => {
    const { store, reopen } = await start();
    for (let index = 0; index < 30; index += 1) await store.add([queueMail(`c${index}`, { campaign: 'c', index })], QUEUE_T0, campaignLaneOf);
    const restarted = await reopen();
    const order: string[] = [];
    for (let claimed = await restarted.claim(ALL, QUEUE_T0); claimed.length > 0; claimed = await restarted.claim(ALL, QUEUE_T0)) {
      assert.equal(claimed.length, 1, 'one of the lane at a time');
      order.push(subjectOf(claimed[0]!));
      await restarted.complete(claimed[0]!.id);
    }
    assert.deepEqual(order, Array.from({ length: 30 }, (_, index) => `c${index}`));
  });

  it('never hands one message to two claimers in a burst of concurrent claims', async () => {
    const { store, other } = await start();
    const added = await store.add(
      Array.from({ length: 30 }, (_, index) => queueMail(`m${index}`)),
      QUEUE_T0,
    );
    const laned = await store.add(
      Array.from({ length: 10 }, (_, index) => queueMail(`c${index}`, { campaign: 'c', index })),
      QUEUE_T0,
      campaignLaneOf,
    );
    const claimers = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? store : other));
    const claims = await Promise.all(claimers.map((claimer) => claimer.claim({ limit: 3, retryLimit: 3 }, QUEUE_T0)));
    const ids = claims.flat().map((message) => message.id);
    assert.equal(new Set(ids).size, ids.length, 'no message claimed twice');
    assert.deepEqual([...ids].sort(), [...idsOf(added), laned[0]!.id].sort(), 'every lane-less one, and one of the lane');

    // Given back together by whoever claimed them, then claimed again in a burst: still once each.
    const laneLess = new Set(idsOf(added));
    await Promise.all(
      claims.flatMap((claimed, index) =>
        claimed.filter((message) => laneLess.has(message.id)).map((message) => claimers[index]!.release(message.id, { attempts: 1, nextAttemptAt: QUEUE_T0 + 1, lastError: 'x' })),
      ),
    );
    const again = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? other : store).claim({ limit: 4, retryLimit: 2 }, QUEUE_T0 + 1)));
    const retried = again.flat().map((message) => message.id);
    assert.equal(new Set(retried).size, retried.length, 'no retry claimed twice');
    assert.deepEqual([...retried].sort(), idsOf(added).sort());
  });
}
