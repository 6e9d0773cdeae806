// Unsaved editor drafts in PostgreSQL (src/adapters/postgres/drafts.ts) on a real server: a round trip per person and
// key, seen at once through another pool (another replica), and a replacement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresDraftStore } from '../../../src/adapters/postgres/drafts.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import type { UnsavedDraft } from '../../../src/admin/drafts/draft-store.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const fields = { title: 'Harbour', slug: 'harbour', date: '2025-03-01', tags: ['sea'], draft: false, excerpt: 'E', cover: 'c.png', coverAlt: 'A boat', author: 'jane', lang: 'en', rawHtml: false };
const draft = (body: string, savedAt = 1_700_000_000_000): UnsavedDraft => ({ fields, body, savedAt });

describe('the PostgreSQL draft store', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await postgres?.close();
  });

  it('keeps one draft per person and key, shared by every replica', async () => {
    const url = await postgres.createDatabase('drafts');
    const pair = [createPostgresState(url, captureLogs().logger), createPostgresState(url, captureLogs().logger)];
    states.push(...pair);
    for (const state of pair) await state.migrated();
    const [store, other] = [createPostgresDraftStore(pair[0]!), createPostgresDraftStore(pair[1]!)];

    assert.equal(await store.get('jane', 'harbour.md'), undefined);
    await store.put('jane', 'harbour.md', draft('Boats at dawn.'));
    await store.put('jane', 'new', draft('A new one.'));
    await store.put('adam', 'harbour.md', draft('Adam\u2019s text.'));
    assert.deepEqual(await other.get('jane', 'harbour.md'), draft('Boats at dawn.'), 'seen through another pool');
    assert.deepEqual(await other.get('jane', 'new'), draft('A new one.'));
    assert.deepEqual(await other.get('adam', 'harbour.md'), draft('Adam\u2019s text.'));

    await other.put('jane', 'harbour.md', draft('Boats at dusk.\r\n\u00e9\u{1F6A4}', 1_700_000_005_000));
    assert.deepEqual(await store.get('jane', 'harbour.md'), draft('Boats at dusk.\r\n\u00e9\u{1F6A4}', 1_700_000_005_000));

    await store.remove('jane', 'harbour.md');
    await store.remove('jane', 'harbour.md');
    assert.equal(await other.get('jane', 'harbour.md'), undefined);
    assert.deepEqual(await other.get('adam', 'harbour.md'), draft('Adam\u2019s text.'), 'another person\u2019s draft stays');
  });
});
