// The on_publish automation with two and three replicas on one real PostgreSQL (docs/newsletter.md "Automations"),
// on fake time: a scheduled post is claimed by one replica; one killed between its claim and its campaign leaves the
// campaign to another a minute later; one killed mid-send leaves the rest to the next holder of the lease. Nobody
// gets the post twice, nobody is missed. And a pause on one replica holds on the others.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { createAutomationFiles } from '../../../src/adapters/files/automation-files.js';
import { createPostgresAutomationStore, importAutomationRunsFromFiles } from '../../../src/adapters/postgres/automation-store.js';
import type { Config } from '../../../src/config/config.js';
import { createJsonlFiles } from '../../../src/kit/files/jsonl.js';
import { createTempDir } from '../../support/temp-dir.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import type { PostAutomation } from '../../../src/config/config.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import { createFakeTimer, type FakeTimer } from '../../support/fake-timers.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createHarness, LISTS, subscribersOf, type HarnessOptions } from './automation-harness.js';

const MINUTE = 60_000;
const ON_PUBLISH: PostAutomation = { id: 'posts', type: 'on_publish', list: 'newsletter', subject: '{{title}}' };
const READERS = subscribersOf(60);

describe('the on_publish automation with replicas on one PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let timers: FakeTimer;
  let harness: ReturnType<typeof createHarness>;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const open of states.splice(0)) await open.close();
    await postgres.close();
  });
  afterEach(async () => {
    await harness.close();
  });

  /**
   * A harness over database `name`; `breakCreate` names the replicas killed while creating a campaign; `wrap` changes
   * the campaign store a replica sees, `setup` the automations, lists and subscribers.
   */
  const start = async (name: string, breakCreate: readonly string[] = [], setup: Partial<Pick<HarnessOptions, 'automations' | 'lists' | 'subscribers'>> = {}, wrap = (campaigns: CampaignStore) => campaigns) => {
    const url = await postgres.createDatabase(name);
    const first = createPostgresState(url, captureLogs().logger);
    states.push(first);
    await first.migrated();
    timers = createFakeTimer(Date.UTC(2026, 0, 1));
    harness = createHarness({
      timers,
      automations: [ON_PUBLISH],
      subscribers: READERS,
      ...setup,
      stores: (replica) => {
        // Each replica its own stores and lease holder name, over one pool (leases and keys are the database's).
        const state = first;
        const campaigns: CampaignStore = createPostgresCampaignStore(state, { runner: replica });
        const broken = breakCreate.includes(replica) ? { ...campaigns, create: () => Promise.reject(new Error('killed while planning')) } : wrap(campaigns);
        return { store: createPostgresAutomationStore(state), campaigns: broken };
      },
    });
    return { harness, state: first };
  };
  /** Moves fake time a second at a time until `reached` (at most ten fake minutes). */
  const advanceUntil = async (what: string, reached: () => boolean) => {
    for (let step = 0; step < 600; step += 1) {
      if (reached()) return;
      await timers.advance(1_000);
    }
    assert.fail(`${what}: not reached`);
  };

  it('mails a scheduled post to everyone once through a kill while planning and a kill while sending', async () => {
    const { harness: { posts, inbox, replica, mailsPerAddress }, state } = await start('kills', ['planner']);
    const planner = replica('planner');
    const sender = replica('sender');
    const heir = replica('heir');
    await Promise.all([planner.automations.runOnce(), sender.automations.runOnce(), heir.automations.runOnce()]);
    posts.push({ slug: 'launch', lang: 'en', title: 'Launch day', date: timers.now() + MINUTE, newsletter: true });
    await timers.advance(MINUTE);

    // The planner claims the post, then dies before its campaign exists.
    await planner.automations.runOnce();
    const { rows } = await state.query<{ campaign: string }>('SELECT campaign FROM newsletter_automation_items WHERE outcome = $1', ['campaign']);
    assert.equal(rows.length, 1, 'claimed once');
    await planner.kill();
    await sender.automations.runOnce();
    assert.equal((await state.query('SELECT 1 FROM campaigns')).rowCount, 0, 'a fresh claim is left to its planner');

    // A minute later the claim without its campaign is planned by another replica, under the same id.
    await timers.advance(MINUTE);
    await Promise.all([sender.automations.runOnce(), heir.automations.runOnce()]);
    const created = await state.query<{ id: string }>('SELECT id FROM campaigns');
    assert.deepEqual(created.rows.map((row) => row.id), [rows[0]!.campaign]);

    // Whoever took the campaign's lease sends part of it and dies; the other goes on once the lease lapsed.
    await advanceUntil('a part of the campaign sent', () => inbox.length >= 20);
    const holder = inbox[0]!.by === 'sender' ? sender : heir;
    await holder.kill();
    assert.ok(inbox.length < READERS.length, `killed mid-send, after ${inbox.length}`);
    await state.query("UPDATE campaigns SET lease_until = now() - interval '1 second'");
    await advanceUntil('every reader mailed', () => new Set(inbox.map((mail) => mail.to)).size === READERS.length);
    await timers.advance(30_000);

    const counts = mailsPerAddress();
    for (const reader of READERS) assert.equal(counts.get(reader.email), 1, `${reader.email}: once`);
    assert.equal(inbox.length, READERS.length, 'nobody twice');

    // Edited and seen again by every replica still alive: nobody is mailed.
    posts[0]!.title = 'Launch day, edited';
    await timers.advance(MINUTE);
    await (holder === sender ? heir : sender).automations.runOnce();
    assert.equal(inbox.length, READERS.length);
  });

  it('mails a person on the lists of two on_publish automations once when two replicas plan the post at the same moment', async () => {
    // Each replica creates its campaign only once the other came to create its own: both planned before either exists.
    let arrived = 0;
    let release = () => {};
    const bothPlanned = new Promise<void>((resolve) => (release = resolve));
    const together = (campaigns: CampaignStore): CampaignStore => ({
      ...campaigns,
      async create(...args) {
        arrived += 1;
        if (arrived === 2) release();
        await bothPlanned;
        return campaigns.create(...args);
      },
    });
    const weekly = { id: 'weekly', name: 'Weekly', description: '', public: true, log: { path: 'weekly', subscribers: 'newsletter-list-weekly-subscribers.jsonl' } };
    // reader0..39 on the newsletter, reader20..59 on the weekly: twenty on both.
    const subscribers = (key: string) => (key === 'weekly' ? READERS.slice(20) : READERS.slice(0, 40));
    const automations: PostAutomation[] = [ON_PUBLISH, { id: 'weekly-posts', type: 'on_publish', list: 'weekly', subject: '{{title}}' }];
    const { harness: { posts, inbox, replica, mailsPerAddress } } = await start('overlap', [], { automations, lists: [...LISTS, weekly], subscribers }, together);
    const one = replica('one');
    const two = replica('two');
    await Promise.all([one.automations.runOnce(), two.automations.runOnce()]);
    posts.push({ slug: 'launch', lang: 'en', title: 'Launch day', date: timers.now() + MINUTE, newsletter: true });
    await timers.advance(MINUTE);
    // One replica takes the post for one automation, the other for the other, at once.
    await Promise.all([one.automations.runOnce(), two.automations.runOnce()]);
    assert.equal(arrived, 2, 'two campaigns planned at the same moment');
    await advanceUntil('every reader mailed', () => new Set(inbox.map((mail) => mail.to)).size === READERS.length);
    await timers.advance(MINUTE);
    const counts = mailsPerAddress();
    for (const reader of READERS) assert.equal(counts.get(reader.email), 1, `${reader.email}: once`);
    assert.equal(inbox.length, READERS.length, 'nobody twice');
  });

  it('holds a pause made on one replica on the others at once', async () => {
    const { harness: { posts, inbox, replica } } = await start('pause');
    const one = replica('one');
    const two = replica('two');
    await one.automations.runOnce();
    await one.automations.setPaused('posts', true, 'alice');
    posts.push({ slug: 'held', lang: 'en', title: 'Held back', date: timers.now() + MINUTE, newsletter: true });
    await timers.advance(2 * MINUTE);
    await two.automations.runOnce();
    await timers.advance(MINUTE);
    assert.equal(inbox.length, 0, 'the other replica mails nothing while paused');

    await two.automations.setPaused('posts', false, 'bob');
    await one.automations.runOnce();
    await advanceUntil('every reader mailed', () => inbox.length === READERS.length);
  });

  it('copies the runs file of data_dir with migrate --from-files, once', async () => {
    const { state } = await start('import');
    const temp = await createTempDir('automation-import');
    try {
      const files = createAutomationFiles(temp.dir, createJsonlFiles().append);
      await files.register('posts', '2026-01-01T00:00:00.000Z', ['post:en:old']);
      await files.claim({ automation: 'posts', item: 'post:en:new', outcome: 'campaign', campaign: '20260102T000000Z-abcdef12', at: '2026-01-02T00:00:00.000Z' });
      await files.setPaused('posts', { paused: true, at: '2026-01-03T00:00:00.000Z', by: 'alice' });
      assert.deepEqual(await files.claimRecipients('post:en:new', '20260102T000000Z-abcdef12', ['Ada@example.org']), ['Ada@example.org']);
      assert.deepEqual(await importAutomationRunsFromFiles(temp.dir, {} as Config, state), { copied: 3, skipped: 0 });
      assert.deepEqual(await importAutomationRunsFromFiles(temp.dir, {} as Config, state), { copied: 0, skipped: 3 });
      const copied = createPostgresAutomationStore(state);
      assert.deepEqual(await copied.states(), [{ automation: 'posts', addedAt: '2026-01-01T00:00:00.000Z', paused: { at: '2026-01-03T00:00:00.000Z', by: 'alice' } }]);
      assert.deepEqual(await copied.runs('posts'), await files.runs('posts'));
      assert.deepEqual(await copied.claimedAmong('posts', ['post:en:old', 'post:en:other']), new Set(['post:en:old']));
      assert.equal(await copied.isCampaignPaused('20260102T000000Z-abcdef12'), true);
      assert.deepEqual(await copied.claimRecipients('post:en:new', 'another', ['ada@example.org', 'bob@example.org']), ['bob@example.org'], 'an address a campaign has');
    } finally {
      await temp.remove();
    }
  });
});
