// `postbox migrate --from-files` for campaigns: every campaign of data_dir/campaigns reads the same from
// PostgreSQL as from the files (a torn last journal line left out), the claims come along, and a second run
// copies nothing.
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CampaignRequest } from '../../../src/newsletter/campaigns/campaign.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { importCampaignsFromFiles } from '../../../src/adapters/postgres/import-campaigns.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { loadTestConfig } from '../../support/config.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';

/** A configuration with a newsletter form over `dataDir`. */
function configOf(dataDir: string) {
  return loadTestConfig(
    { data_dir: dataDir, server: { public_url: 'https://forms.example.com' }, mail: { from: 'news@example.com', to: 'owner@example.com' }, forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'] }] },
    dataDir,
  );
}

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };

function requestFor(id: string, recipients: number, lang = 'en'): CampaignRequest {
  return { id, form: '/newsletter', slug: 'a-new-post', lang, subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients, resend: false };
}

describe('importing campaigns from data_dir into PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState;
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  before(async () => {
    postgres = await startPostgresServer();
    state = createPostgresState(await postgres.createDatabase('import'), captureLogs().logger);
    await state.migrated();
    temp = await createTempDir('import-campaigns');
  });
  after(async () => {
    await state.close();
    await postgres.close();
    await temp.remove();
  });

  it('copies each campaign whole with its journal and the claims, and nothing on a second run', async () => {
    const files = createCampaignFiles(campaignsDirOf(temp.dir));
    const addresses = ['ada@example.org', 'grace@example.org', 'edsger@example.org'];
    assert.equal(await files.claim('/newsletter', 'a-new-post', 'en', []), true);
    await files.create(requestFor('20261123T120000Z-abcd', 3), BODY, addresses);
    await files.create(requestFor('20261124T120000Z-0123', 1, 'fr'), { ...BODY, lang: 'fr' }, ['marie@example.org']);
    for (const line of [{ started_at: '2026-11-23T12:00:01.000Z' }, { r: 0, s: 'sent' as const }, { r: 1, s: 'skipped' as const }]) await files.append('20261123T120000Z-abcd', line);
    // A process killed while it wrote a line.
    await appendFile(path.join(campaignsDirOf(temp.dir), '20261123T120000Z-abcd', 'journal.jsonl'), '{"r":2,"s":"se');
    const config = configOf(temp.dir);

    assert.deepEqual(await importCampaignsFromFiles(temp.dir, config, state), { copied: 2, skipped: 0 });
    const copied = createPostgresCampaignStore(state);
    assert.deepEqual(await copied.list(), await files.list());
    for (const { id } of await files.list()) {
      assert.deepEqual(await copied.readBody(id), await files.readBody(id));
      assert.deepEqual(await copied.readRecipients(id), await files.readRecipients(id));
      assert.deepEqual(await copied.readJournal(id), await files.readJournal(id));
    }
    assert.equal((await copied.readJournal('20261123T120000Z-abcd')).length, 3, 'the torn line left out');
    assert.equal(await copied.claim('/newsletter', 'a-new-post', 'en', []), false, 'the claim came along');

    assert.deepEqual(await importCampaignsFromFiles(temp.dir, config, state), { copied: 0, skipped: 2 });
    assert.equal((await copied.readJournal('20261123T120000Z-abcd')).length, 3, 'no line copied twice');
    assert.deepEqual(await copied.readRecipients('20261123T120000Z-abcd'), addresses);
  });

  it('copies nothing from a data_dir without campaigns', async () => {
    const empty = await createTempDir('no-campaigns');
    try {
      assert.deepEqual(await importCampaignsFromFiles(empty.dir, configOf(empty.dir), state), { copied: 0, skipped: 0 });
    } finally {
      await empty.remove();
    }
  });
});
