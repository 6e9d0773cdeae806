// The mail queue's table against a real PostgreSQL: claims by several replicas never overlap, a lease that ran
// out lets another replica take the message, a lane (a campaign) has at most one message leased at a time, and
// `postbox queue list|retry|drop` work on the rows.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { campaignLaneOf, type OutgoingMessage } from '../../../src/queue/outgoing.js';
import { createPostgresQueueStore } from '../../../src/adapters/postgres/queue-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const LEASE = 60_000;

const mail = (to: string, recipient?: { campaign: string; index: number }): OutgoingMessage => ({
  channel: 'mail',
  form: '/contact',
  kind: recipient ? 'newsletter' : 'owner',
  mail: { from: 'forms@example.com', to, subject: 'Hello', text: 'Hello.', autoSubmitted: 'auto-generated' },
  ...(recipient ? { recipient } : {}),
});

describe('the queue table', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
  });
  after(async () => {
    await postgres.close();
  });

  /** A fresh database and `count` replicas' stores on it. */
  async function replicas(count: number) {
    const url = await postgres.createDatabase(`queue_${(databases += 1)}`);
    const stores = [];
    for (let index = 0; index < count; index += 1) {
      const state = createPostgresState(url, captureLogs().logger);
      states.push(state);
      await state.migrated();
      stores.push(createPostgresQueueStore(state, { owner: `replica-${index}`, leaseMs: LEASE, clock: () => NOW }));
    }
    return { stores, state: states.at(-1)! };
  }

  it('hands each due message to one replica only, new ones before retries, in the order queued', async () => {
    const { stores } = await replicas(3);
    const added = await stores[0]!.add(
      Array.from({ length: 30 }, (_, index) => mail(`reader${index}@example.org`)),
      NOW,
    );
    assert.equal(new Set(added.map((message) => message.id)).size, 30);
    const claims = await Promise.all(stores.map((store) => store.claim({ limit: 12, retryLimit: 12 }, NOW)));
    const ids = claims.flat().map((message) => message.id);
    assert.equal(ids.length, 30);
    assert.equal(new Set(ids).size, 30, 'no message is claimed twice');
    assert.deepEqual(await stores[0]!.claim({ limit: 10, retryLimit: 10 }, NOW), [], 'leased messages are nobody else\'s');
    // One fails for a while; a newer message goes before it once both are due.
    const [first] = claims.flat();
    await stores[0]!.release(first!.id, { attempts: 1, nextAttemptAt: NOW - 1, lastError: 'smtp_451' });
    const [fresh] = await stores[1]!.add([mail('late@example.org')], NOW);
    const next = await stores[2]!.claim({ limit: 2, retryLimit: 2 }, NOW);
    assert.deepEqual(
      next.map((message) => [message.id, message.attempts]),
      [
        [fresh!.id, 0],
        [first!.id, 1],
      ],
    );
  });

  it('gives a message whose lease ran out to another replica, and ignores the first replica\'s late release', async () => {
    const { stores } = await replicas(2);
    const [message] = await stores[0]!.add([mail('ada@example.org')], NOW);
    assert.equal((await stores[0]!.claim({ limit: 5, retryLimit: 5 }, NOW)).length, 1);
    assert.deepEqual(await stores[1]!.claim({ limit: 5, retryLimit: 5 }, NOW + LEASE - 1), [], 'still leased');
    const taken = await stores[1]!.claim({ limit: 5, retryLimit: 5 }, NOW + LEASE);
    assert.deepEqual(taken.map((entry) => entry.id), [message!.id]);
    // The first replica comes back late: its release no longer holds the message.
    await stores[0]!.release(message!.id, { attempts: 1, nextAttemptAt: NOW, lastError: 'timeout' });
    assert.deepEqual(await stores[0]!.claim({ limit: 5, retryLimit: 5 }, NOW + LEASE), [], 'still the second replica\'s');
    await stores[1]!.complete(message!.id);
    assert.deepEqual(await stores[0]!.counts(), { pending: 0, failed: 0 });
  });

  it('leases at most one message of a lane at a time, across replicas, in the order queued', async () => {
    const { stores } = await replicas(3);
    const campaign = (index: number) => mail(`r${index}@example.org`, { campaign: 'c1', index });
    await stores[0]!.add([campaign(0), campaign(1), campaign(2), mail('owner@example.org')], NOW, campaignLaneOf);
    await stores[1]!.add([mail('x@example.org', { campaign: 'c2', index: 0 })], NOW, campaignLaneOf);
    const claims = await Promise.all(stores.map((store) => store.claim({ limit: 8, retryLimit: 8 }, NOW)));
    const laned = claims.flat().filter((message) => message.message.channel === 'mail' && message.message.recipient);
    assert.deepEqual(laned.map((message) => campaignLaneOf(message)).sort(), ['campaign:c1', 'campaign:c2'], 'one per lane');
    assert.equal(claims.flat().length, 3, 'and the lane-less one');
    const firstOfC1 = laned.find((message) => campaignLaneOf(message) === 'campaign:c1')!;
    assert.deepEqual(firstOfC1.message.channel === 'mail' && firstOfC1.message.recipient, { campaign: 'c1', index: 0 });
    assert.deepEqual(await stores[2]!.claim({ limit: 8, retryLimit: 8 }, NOW), [], 'the lane waits while one of it is leased');
    await stores[0]!.complete(firstOfC1.id);
    const next = await stores[2]!.claim({ limit: 8, retryLimit: 8 }, NOW);
    assert.deepEqual(next.map((message) => message.message.channel === 'mail' && message.message.recipient?.index), [1]);
    // A retry waiting for its time does not hold up the rest of its lane.
    await stores[2]!.release(next[0]!.id, { attempts: 1, nextAttemptAt: NOW + 30_000, lastError: 'smtp_451' });
    assert.deepEqual((await stores[1]!.claim({ limit: 8, retryLimit: 8 }, NOW)).map((message) => message.message.channel === 'mail' && message.message.recipient?.index), [2]);
  });

  it('keeps given-up messages for list, retry and drop, with pending ones listed with their tries', async () => {
    const { stores } = await replicas(1);
    const store = stores[0]!;
    const [lost, waiting, dropped] = await store.add([mail('a@example.org'), mail('b@example.org'), mail('c@example.org')], NOW);
    await store.claim({ limit: 3, retryLimit: 3 }, NOW);
    await store.fail(lost!.id, { attempts: 2, nextAttemptAt: NOW, lastError: 'smtp_550: mailbox <address> unknown' }, NOW + 5);
    await store.release(waiting!.id, { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' });
    await store.release(dropped!.id, { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' });
    assert.deepEqual(await store.listFailed(), [
      { id: lost!.id, createdAt: NOW, message: lost!.message, failedAt: NOW + 5, attempts: 2, lastError: 'smtp_550: mailbox <address> unknown' },
    ]);
    assert.deepEqual(
      await store.listPending(),
      [waiting, dropped].map((message) => ({ ...message!, attempt: { attempts: 1, nextAttemptAt: NOW + 60_000, lastError: 'ECONNREFUSED' } })),
      'each as queued, with its tries and nothing else',
    );
    assert.deepEqual(await store.counts(), { pending: 2, failed: 1 });
    assert.equal(await store.countFailed(), 1);
    assert.equal(await store.drop(dropped!.id), 'pending');
    assert.equal(await store.drop(dropped!.id), undefined);
    assert.deepEqual(await store.claim({ limit: 5, retryLimit: 5 }, NOW), [], 'nothing due yet');
    await store.requestRetry();
    assert.deepEqual((await store.claim({ limit: 5, retryLimit: 5 }, NOW)).map((message) => message.id), [waiting!.id], '`queue retry` of a pending one: due now');
    assert.equal(await store.retryFailed(waiting!.id, NOW), false, 'not a failed one');
    assert.equal(await store.retryFailed(lost!.id, NOW + 1_000), true);
    const back = await store.claim({ limit: 5, retryLimit: 5 }, NOW + 1_000);
    assert.deepEqual(
      back.map((message) => [message.id, message.createdAt, message.attempts]),
      [[lost!.id, NOW + 1_000, 0]],
      'back with the same id and a new lifetime',
    );
    assert.equal(await store.drop('msg_nothing'), undefined);
  });
});
