// Campaigns in a real PostgreSQL (docs/newsletter.md "With PostgreSQL and several replicas"): a campaign is written
// whole or not at all and read back as the files backend gives it, two sends started together make one campaign, and
// one replica at a time holds a campaign's lease, another taking it over once it lapsed or was given up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CampaignRequest } from '../../../src/newsletter/campaigns/campaign.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { UnavailableError } from '../../../src/kit/unavailable-error.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };

function requestFor(id: string, recipients: number): CampaignRequest {
  return { id, form: '/newsletter', slug: 'a-new-post', lang: 'en', subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients, resend: false };
}

describe('campaigns in PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  const stateOf = async (name: string) => {
    const state = createPostgresState(await postgres.createDatabase(name), captureLogs().logger);
    states.push(state);
    await state.migrated();
    return state;
  };
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const state of states.splice(0)) await state.close();
    await postgres.close();
  });

  it('keeps a campaign whole: request, body, recipients in order and the journal in the order written', async () => {
    const store = createPostgresCampaignStore(await stateOf('whole'));
    const addresses = Array.from({ length: 2_500 }, (_, index) => `reader${index}@example.org`);
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.read('20261123T120000Z-abcd'), undefined);
    await store.create(requestFor('20261123T120000Z-abcd', addresses.length), BODY, addresses);
    await store.create(requestFor('20261123T110000Z-0123', 1), BODY, ['first@example.org']);
    assert.deepEqual(
      (await store.list()).map((request) => request.id),
      ['20261123T110000Z-0123', '20261123T120000Z-abcd'],
      'oldest first',
    );
    assert.deepEqual(await store.read('20261123T120000Z-abcd'), requestFor('20261123T120000Z-abcd', addresses.length));
    assert.deepEqual(await store.readBody('20261123T120000Z-abcd'), BODY);
    assert.deepEqual(await store.readRecipients('20261123T120000Z-abcd'), addresses);
    assert.deepEqual(await store.readJournal('20261123T120000Z-abcd'), []);
    const lines = [{ started_at: '2026-11-23T12:00:01.000Z' }, { r: 0, s: 'sent' as const }, { r: 1, s: 'skipped' as const }, { r: 0, s: 'failed' as const }];
    for (const line of lines) await store.append('20261123T120000Z-abcd', line);
    assert.deepEqual(await store.readJournal('20261123T120000Z-abcd'), lines);
    assert.deepEqual(await store.readJournal('20261123T110000Z-0123'), [], 'each campaign has its own journal');
  });

  it('writes nothing of a campaign whose recipients cannot be written', async () => {
    const state = await stateOf('nothing');
    const store = createPostgresCampaignStore(state);
    // PostgreSQL refuses a NUL in text: the recipients fail after the campaign row went in.
    await assert.rejects(store.create(requestFor('20261123T120000Z-abcd', 2), BODY, ['ada@example.org', 'bad\u0000@example.org']));
    assert.deepEqual(await store.list(), []);
    const { rows } = await state.query<{ count: number }>('SELECT count(*)::int AS count FROM campaign_recipients');
    assert.equal(rows[0]?.count, 0);
  });

  it('lets one of two sends started together make the campaign, and the next send after it make its own', async () => {
    const state = await stateOf('claims');
    const [first, second] = [createPostgresCampaignStore(state), createPostgresCampaignStore(state)];
    const taken = await Promise.all([first.claim('/newsletter', 'a-new-post', 'en', []), second.claim('/newsletter', 'a-new-post', 'en', [])]);
    assert.deepEqual(taken.sort(), [false, true]);
    assert.equal(await first.claim('/newsletter', 'a-new-post', 'en', ['20261123T120000Z-abcd']), true, 'a resend after that campaign');
    assert.equal(await first.claim('/newsletter', 'a-new-post', 'fr', []), true, 'another language');
  });

  it('gives a lease to one replica at a time, renewed by it, taken over once it lapsed or was given up', async () => {
    const state = await stateOf('leases');
    const one = createPostgresCampaignStore(state, { runner: 'one' });
    const two = createPostgresCampaignStore(state, { runner: 'two' });
    const id = '20261123T120000Z-abcd';
    await one.create(requestFor(id, 1), BODY, ['ada@example.org']);
    assert.equal(await one.lease!(id), true);
    assert.equal(await two.lease!(id), false, 'held by one');
    assert.equal(await one.lease!(id), true, 'renewed by its holder');
    assert.equal(await two.lease!(id), false);
    // One dies: its lease lapses (the database's clock says so).
    await state.query("UPDATE campaigns SET lease_until = now() - interval '1 second' WHERE id = $1", [id]);
    assert.equal(await two.lease!(id), true, 'taken over');
    assert.equal(await one.lease!(id), false, 'one lost it');
    await one.release!(id);
    assert.equal(await one.lease!(id), false, 'a replica cannot give up a lease it does not hold');
    await two.release!(id);
    assert.equal(await one.lease!(id), true, 'given up: taken at once');
    assert.equal(await two.lease!('20261123T130000Z-ffff'), false, 'no such campaign');
  });

  it('rejects with UnavailableError while PostgreSQL is down', async () => {
    const state = await stateOf('down');
    const store = createPostgresCampaignStore(state);
    await postgres.stop();
    try {
      await assert.rejects(store.list(), UnavailableError);
      await assert.rejects(store.create(requestFor('20261123T120000Z-abcd', 1), BODY, ['ada@example.org']), UnavailableError);
      await assert.rejects(store.lease!('20261123T120000Z-abcd'), UnavailableError);
    } finally {
      await postgres.start();
    }
  });
});
