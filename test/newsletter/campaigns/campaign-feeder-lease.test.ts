// The campaign feeder over campaigns in a real PostgreSQL, one feeder and ledger per replica, each with its own mail
// queue (docs/newsletter.md "With PostgreSQL and several replicas"): a campaign is sent once, not once per replica; a
// replica that died leaves its campaign to another once the lease lapsed, which goes on after the last journaled
// recipient; a replica that lost its lease hands no more mails to its queue. Polls and lease renewals run on fake
// time; the leases themselves are the database's.
import { formListsOf } from '../../../src/newsletter/lists.js';
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import { createCampaignFeeder, type CampaignFeeder } from '../../../src/newsletter/campaigns/campaign-feeder.js';
import { createCampaignLedger } from '../../../src/newsletter/campaigns/campaign-ledger.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import type { NewsletterForm } from '../../../src/config/config.js';
import type { OutgoingMessage, QueuedMessage } from '../../../src/queue/outgoing.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { createFakeTimer, type FakeTimer } from '../../support/fake-timers.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };
const ID = '20261123T120000Z-abcd';
const FORM = { path: '/newsletter', type: 'newsletter', list: 'newsletter', subscribers: 'newsletter-subscribers.jsonl' } as NewsletterForm;
const LIST = formListsOf([FORM])[0]!;
const ADDRESSES = Array.from({ length: 60 }, (_, index) => `reader${index}@example.org`);

function requestFor(recipients: number): CampaignRequest {
  return { id: ID, form: '/newsletter', slug: 'a-new-post', lang: 'en', subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients, resend: false };
}

/** Fake milliseconds between two polls of a feeder. */
const POLL_MS = 20;

/** One replica: its own queue in memory, sending each mail a turn after it was queued unless held, into `inbox`. */
interface Replica {
  feeder: CampaignFeeder;
  logs: LogCapture;
  enqueued: number;
  leaseAttempts: boolean[];
  /** While true, mails wait in the queue unsent. */
  hold: boolean;
  release(): void;
}

describe('the campaign feeder with several replicas on one PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  const feeders: CampaignFeeder[] = [];
  let state: PostgresState;
  let timers: FakeTimer;
  /** Every mail delivered, by any replica: the address and who sent it. */
  let inbox: Array<{ to: string; by: string }>;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const open of states.splice(0)) await open.close();
    await postgres.close();
  });
  afterEach(async () => {
    for (const feeder of feeders.splice(0)) await feeder.stop();
  });

  const database = async (name: string) => {
    state = createPostgresState(await postgres.createDatabase(name), captureLogs().logger);
    states.push(state);
    await state.migrated();
    inbox = [];
    timers = createFakeTimer();
    await createPostgresCampaignStore(state).create(requestFor(ADDRESSES.length), BODY, ADDRESSES);
  };

  /**
   * `unsubscribed`: addresses that left the list; `enqueue`: the queue write instead of the replica's own queue (one
   * that never resolves is a replica killed while writing).
   */
  function replica(name: string, options: { leaseRenewMs?: number; unsubscribed?: ReadonlySet<string>; enqueue?: () => Promise<void> } = {}): Replica {
    const logs = captureLogs();
    const pending: QueuedMessage[] = [];
    const store: CampaignStore = timers.track(createPostgresCampaignStore(state, { runner: name }));
    const self: Replica = {
      feeder: undefined as unknown as CampaignFeeder,
      logs,
      enqueued: 0,
      leaseAttempts: [],
      hold: false,
      release: () => {
        self.hold = false;
        for (const queued of [...pending]) void nextTurn().then(() => deliver(queued));
      },
    };
    const deliver = async (queued: QueuedMessage) => {
      if (self.hold || !pending.includes(queued)) return;
      const { message } = queued;
      if (message.channel !== 'mail') return;
      pending.splice(pending.indexOf(queued), 1);
      inbox.push({ to: message.mail.to, by: name });
      await ledger.settled(queued, 'sent');
    };
    const leasing: CampaignStore = {
      ...store,
      lease: async (id) => {
        const held = await store.lease!(id);
        self.leaseAttempts.push(held);
        return held;
      },
    };
    const listOf = (key: string) => (key === LIST.log.path ? LIST : undefined);
    const ledger = createCampaignLedger({ store: leasing, listOf, isSubscribed: async (_log, email) => !options.unsubscribed?.has(email), timers });
    self.feeder = createCampaignFeeder({
      store: leasing,
      ledger,
      enqueue: async (messages: readonly OutgoingMessage[]) => {
        if (options.enqueue) return options.enqueue();
        for (const message of messages) {
          const queued: QueuedMessage = { id: `${name}-${self.enqueued}`, createdAt: timers.now(), message };
          self.enqueued += 1;
          pending.push(queued);
          void nextTurn().then(() => deliver(queued));
        }
      },
      pendingMessages: async () => [...pending],
      listOf,
      mailFor: async (_list, email, body) => ({ from: 'news@example.com', to: email, subject: body.subject, text: body.text, autoSubmitted: 'auto-generated' }),
      sendPerMinute: 0,
      clock: timers.now,
      timers,
      logger: logs.logger,
      pollIntervalMs: POLL_MS,
      leaseRenewMs: options.leaseRenewMs,
    });
    feeders.push(self.feeder);
    return self;
  }

  const journal = () => createPostgresCampaignStore(state).readJournal(ID);
  /** Moves fake time a poll at a time until `reached` (at most a fake minute). */
  const advanceUntil = async (what: string, reached: () => boolean | Promise<boolean>) => {
    for (let step = 0; step < 3_000; step += 1) {
      if (await reached()) return;
      await timers.advance(POLL_MS);
    }
    assert.fail(`${what}: not reached`);
  };
  const finished = () => advanceUntil('the campaign to finish', async () => (await journal()).some((line) => 'finished_at' in line));
  const mailsPerAddress = () => {
    const counts = new Map<string, number>();
    for (const { to } of inbox) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };

  it('sends every recipient one mail when two replicas run the campaign feeder', async () => {
    await database('two_replicas');
    const one = replica('one');
    const two = replica('two');
    one.feeder.start();
    two.feeder.start();
    await finished();
    const counts = mailsPerAddress();
    for (const email of ADDRESSES) assert.equal(counts.get(email), 1, email);
    assert.equal(inbox.length, ADDRESSES.length);
    assert.equal(new Set(inbox.map((mail) => mail.by)).size, 1, 'one replica sent the campaign');
    assert.ok(one.leaseAttempts.includes(false) || two.leaseAttempts.includes(false), 'the other one was refused the lease');
  });

  it('leaves a campaign held by a replica that died until its lease lapsed, then goes on after the last journaled recipient', async () => {
    await database('takeover');
    const dead = createPostgresCampaignStore(state, { runner: 'dead' });
    assert.equal(await dead.lease!(ID), true);
    await dead.append(ID, { started_at: '2026-11-23T12:00:01.000Z' });
    for (let index = 0; index < 20; index += 1) await dead.append(ID, { r: index, s: 'sent' });
    const heir = replica('heir');
    heir.feeder.start();
    await advanceUntil('three refused lease attempts', () => heir.leaseAttempts.filter((held) => !held).length >= 3);
    assert.equal(heir.enqueued, 0, 'nothing sent while the lease holds');
    await state.query("UPDATE campaigns SET lease_until = now() - interval '1 second' WHERE id = $1", [ID]);
    await finished();
    assert.deepEqual(inbox.map((mail) => mail.to).sort(), ADDRESSES.slice(20).sort(), 'the rest, once each');
    const lines = await journal();
    const outcomes = lines.filter((line): line is Extract<JournalLine, { r: number }> => 'r' in line);
    assert.deepEqual(
      outcomes.map((line) => line.r).sort((first, second) => first - second),
      ADDRESSES.map((_, index) => index),
    );
    assert.ok(outcomes.every((line) => line.s === 'sent'));
  });

  it('hands no more mails to its queue once it lost the lease', async () => {
    await database('lost');
    const one = replica('one', { leaseRenewMs: 20 });
    one.hold = true;
    one.feeder.start();
    await advanceUntil('mails in the queue', () => one.enqueued > 0);
    // Its lease lapsed (a long pause) and another replica took the campaign.
    // In one statement: its own renewals, every 20 fake ms, would otherwise take the lapsed lease back first.
    await state.query("UPDATE campaigns SET runner = 'other', lease_until = now() + interval '1 minute' WHERE id = $1", [ID]);
    await advanceUntil('the lease to be lost', () => one.logs.lines().some((line) => line.event === 'campaign_lease_lost'));
    const handedOver = one.enqueued;
    one.release();
    const attempts = one.leaseAttempts.length;
    await advanceUntil('two more refused lease attempts', () => one.leaseAttempts.length >= attempts + 2);
    assert.ok(one.leaseAttempts.slice(attempts).every((held) => !held));
    assert.equal(one.enqueued, handedOver, 'no mail handed over after the lease was lost');
    assert.ok(!(await journal()).some((line) => 'finished_at' in line), 'not finished by a replica without the lease');
  });

  it('mails every wanted recipient once when a replica was killed while queueing a batch with unsubscribed addresses in it', async () => {
    await database('killed_mid_batch');
    // Every fourth address left the list: each batch has wanted recipients before and after a skipped one.
    const unsubscribed = new Set(ADDRESSES.filter((_, index) => index % 4 === 3));
    let kill!: (error: Error) => void;
    const killed = new Promise<void>((_resolve, reject) => (kill = reject));
    // Its queue write never returns (the process died there), and its lease is not renewed again.
    const dead = replica('dead', { unsubscribed, enqueue: () => killed, leaseRenewMs: 3_600_000 });
    dead.feeder.start();
    await advanceUntil('the campaign started', async () => (await journal()).some((line) => 'started_at' in line));
    for (let turn = 0; turn < 20; turn += 1) await nextTurn();
    await state.query("UPDATE campaigns SET lease_until = now() - interval '1 second' WHERE id = $1", [ID]);
    try {
      const heir = replica('heir', { unsubscribed });
      heir.feeder.start();
      await finished();
      const counts = mailsPerAddress();
      for (const email of ADDRESSES) assert.equal(counts.get(email) ?? 0, unsubscribed.has(email) ? 0 : 1, email);
      const outcomes = new Map<number, string>();
      for (const line of await journal()) if ('r' in line) outcomes.set(line.r, line.s);
      ADDRESSES.forEach((email, index) => assert.equal(outcomes.get(index), unsubscribed.has(email) ? 'skipped' : 'sent', email));
    } finally {
      // Lets the dead replica's feeder stop.
      kill(new Error('killed'));
    }
  });
});
