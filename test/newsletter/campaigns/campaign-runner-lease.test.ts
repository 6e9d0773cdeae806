// The campaign runner over campaigns in a real PostgreSQL, one runner per replica, each with its own mail queue
// (docs/newsletter.md "With PostgreSQL and several replicas"): a campaign is sent once, not once per replica; a
// replica that died leaves its campaign to another once the lease lapsed, which goes on after the last journaled
// recipient; a replica that lost its lease hands no more mails to its queue.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import { createCampaignRunner, type CampaignRunner } from '../../../src/newsletter/campaigns/campaign-runner.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import type { NewsletterForm } from '../../../src/config/config.js';
import type { OutgoingMessage, QueuedMessage } from '../../../src/queue/outgoing.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { waitFor } from '../../support/wait.js';

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };
const ID = '20261123T120000Z-abcd';
const FORM = { path: '/newsletter', type: 'newsletter' } as NewsletterForm;
const ADDRESSES = Array.from({ length: 60 }, (_, index) => `reader${index}@example.org`);

function requestFor(recipients: number): CampaignRequest {
  return { id: ID, form: '/newsletter', slug: 'a-new-post', lang: 'en', subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients, resend: false };
}

/** One replica: its own queue in memory, sending each mail after a few milliseconds unless held, into `inbox`. */
interface Replica {
  runner: CampaignRunner;
  logs: LogCapture;
  enqueued: number;
  leaseAttempts: boolean[];
  /** While true, mails wait in the queue unsent. */
  hold: boolean;
  release(): void;
}

describe('the campaign runner with several replicas on one PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  const runners: CampaignRunner[] = [];
  let state: PostgresState;
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
    for (const runner of runners.splice(0)) await runner.stop();
  });

  const database = async (name: string) => {
    state = createPostgresState(await postgres.createDatabase(name), captureLogs().logger);
    states.push(state);
    await state.migrated();
    inbox = [];
    await createPostgresCampaignStore(state).create(requestFor(ADDRESSES.length), BODY, ADDRESSES);
  };

  function replica(name: string, options: { leaseRenewMs?: number } = {}): Replica {
    const logs = captureLogs();
    const pending: QueuedMessage[] = [];
    const store: CampaignStore = createPostgresCampaignStore(state, { runner: name });
    const self: Replica = {
      runner: undefined as unknown as CampaignRunner,
      logs,
      enqueued: 0,
      leaseAttempts: [],
      hold: false,
      release: () => {
        self.hold = false;
        for (const queued of [...pending]) setTimeout(() => void deliver(queued), 1);
      },
    };
    const deliver = async (queued: QueuedMessage) => {
      if (self.hold || !pending.includes(queued)) return;
      const { message } = queued;
      if (message.channel !== 'mail') return;
      pending.splice(pending.indexOf(queued), 1);
      inbox.push({ to: message.mail.to, by: name });
      await self.runner.settled(queued, 'sent');
    };
    self.runner = createCampaignRunner({
      store: {
        ...store,
        lease: async (id) => {
          const held = await store.lease!(id);
          self.leaseAttempts.push(held);
          return held;
        },
      },
      enqueue: async (messages: readonly OutgoingMessage[]) => {
        for (const message of messages) {
          const queued: QueuedMessage = { id: `${name}-${self.enqueued}`, createdAt: Date.now(), message };
          self.enqueued += 1;
          pending.push(queued);
          setTimeout(() => void deliver(queued), 3);
        }
      },
      pendingMessages: async () => [...pending],
      formOf: (path) => (path === FORM.path ? FORM : undefined),
      isSubscribed: async () => true,
      mailFor: async (_form, email, body) => ({ from: 'news@example.com', to: email, subject: body.subject, text: body.text, autoSubmitted: 'auto-generated' }),
      sendPerMinute: 0,
      clock: Date.now,
      logger: logs.logger,
      pollIntervalMs: 20,
      leaseRenewMs: options.leaseRenewMs,
    });
    runners.push(self.runner);
    return self;
  }

  const journal = () => createPostgresCampaignStore(state).readJournal(ID);
  const finished = () => waitFor('the campaign to finish', async () => ((await journal()).some((line) => 'finished_at' in line) ? true : undefined));
  const mailsPerAddress = () => {
    const counts = new Map<string, number>();
    for (const { to } of inbox) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };

  it('sends every recipient one mail when two replicas run the campaign runner', async () => {
    await database('two_replicas');
    const one = replica('one');
    const two = replica('two');
    one.runner.start();
    two.runner.start();
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
    heir.runner.start();
    await waitFor('three refused lease attempts', () => (heir.leaseAttempts.filter((held) => !held).length >= 3 ? true : undefined));
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
    one.runner.start();
    await waitFor('mails in the queue', () => (one.enqueued > 0 ? true : undefined));
    // Its lease lapsed (a long pause) and another replica took the campaign.
    // In one statement: its own renewals, every 20 ms, would otherwise take the lapsed lease back first.
    await state.query("UPDATE campaigns SET runner = 'other', lease_until = now() + interval '1 minute' WHERE id = $1", [ID]);
    await waitFor('the lease to be lost', () => (one.logs.lines().some((line) => line.event === 'campaign_lease_lost') ? true : undefined));
    const handedOver = one.enqueued;
    one.release();
    const attempts = one.leaseAttempts.length;
    await waitFor('two more refused lease attempts', () => (one.leaseAttempts.length >= attempts + 2 ? true : undefined));
    assert.ok(one.leaseAttempts.slice(attempts).every((held) => !held));
    assert.equal(one.enqueued, handedOver, 'no mail handed over after the lease was lost');
    assert.ok(!(await journal()).some((line) => 'finished_at' in line), 'not finished by a replica without the lease');
  });
});
