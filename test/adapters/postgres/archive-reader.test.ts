// The inbox's reader over the archives table (src/adapters/postgres/archive-reader.ts), against a real PostgreSQL:
// pages of 50 newest first, a search reaching across batches of rows, one form's rows of a shared archive only,
// the export oldest first, removal by id, and counts per UTC day.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresArchiveReader } from '../../../src/adapters/postgres/archive-reader.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { searchTermsOf } from '../../../src/admin/inbox/inbox-entry.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const CONTACT = { archive: 'shared.jsonl', form: '/contact' };
const START = Date.parse('2026-02-01T10:00:00Z');

describe('the archive reader over PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState;
  before(async () => {
    postgres = await startPostgresServer();
    state = createPostgresState(await postgres.createDatabase('archive_reader'), captureLogs().logger);
    await state.migrated();
    // 1,200 contact rows, one an hour; every 100th mentions Paris; a feedback form's rows in the same archive between them.
    for (let index = 0; index < 1_200; index += 1) {
      const line = { received_at: new Date(START + index * 3_600_000).toISOString(), form: '/contact', type: 'contact', name: `Sender ${index}`, message: index % 100 === 0 ? 'Été à PARIS' : 'hello' };
      await state.query('INSERT INTO archives (archive, form, received_at, data) VALUES ($1, $2, $3, $4)', [CONTACT.archive, line.form, line.received_at, JSON.stringify(line)]);
      if (index % 300 === 0) {
        const other = { ...line, form: '/feedback', name: `Other ${index}`, message: 'paris' };
        await state.query('INSERT INTO archives (archive, form, received_at, data) VALUES ($1, $2, $3, $4)', [CONTACT.archive, other.form, other.received_at, JSON.stringify(other)]);
      }
    }
  });
  after(async () => {
    await state.close();
    await postgres.close();
  });
  const reader = () => createPostgresArchiveReader(state);
  const names = (entries: Array<{ fields: Record<string, string> }>) => entries.map((entry) => entry.fields.name);

  it('pages newest first, 50 at a time, with the form’s rows only', async () => {
    const first = await reader().readPage(CONTACT, { page: 1, size: 50, terms: [] });
    assert.equal(first.entries.length, 50);
    assert.equal(first.hasNext, true);
    assert.deepEqual(names(first.entries).slice(0, 2), ['Sender 1199', 'Sender 1198']);
    const last = await reader().readPage(CONTACT, { page: 24, size: 50, terms: [] });
    assert.equal(last.hasNext, false);
    assert.equal(names(last.entries).at(-1), 'Sender 0');
    assert.deepEqual(await reader().readPage(CONTACT, { page: 25, size: 50, terms: [] }), { entries: [], hasNext: false });
  });

  it('searches like the files backend, across batches of rows', async () => {
    const terms = searchTermsOf('été paris');
    const found = await reader().readPage(CONTACT, { page: 1, size: 5, terms });
    assert.deepEqual(names(found.entries), ['Sender 1100', 'Sender 1000', 'Sender 900', 'Sender 800', 'Sender 700']);
    assert.equal(found.hasNext, true);
    const rest = await reader().readPage(CONTACT, { page: 3, size: 5, terms });
    assert.deepEqual(names(rest.entries), ['Sender 100', 'Sender 0']);
    assert.equal(rest.hasNext, false);
  });

  it('reads one entry by its row id, exports oldest first, removes by id, and counts per day', async () => {
    const [newest] = (await reader().readPage(CONTACT, { page: 1, size: 1, terms: [] })).entries;
    assert.equal((await reader().readEntry(CONTACT, newest!.id))?.fields.name, 'Sender 1199');
    assert.equal(await reader().readEntry(CONTACT, 'abc'), undefined);
    assert.equal(await reader().readEntry({ ...CONTACT, form: '/feedback' }, newest!.id), undefined, "another form's row is not this form's");

    const exported: string[] = [];
    for await (const entry of reader().readEntries(CONTACT)) exported.push(entry.fields.name!);
    assert.equal(exported.length, 1_200);
    assert.deepEqual([exported[0], exported.at(-1)], ['Sender 0', 'Sender 1199']);

    assert.equal(await reader().remove({ ...CONTACT, form: '/feedback' }, newest!.id), 'missing');
    assert.equal(await reader().remove(CONTACT, newest!.id), 'removed');
    assert.equal(await reader().remove(CONTACT, newest!.id), 'missing', 'twice is harmless');
    assert.equal(await reader().readEntry(CONTACT, newest!.id), undefined);

    // The last row (removed) was 2026-03-23T09:00Z; the 30 days up to 2026-03-23T23:00Z start on 2026-02-22.
    const days = await reader().countByDay(CONTACT, 30, Date.parse('2026-03-23T23:00:00Z'));
    assert.equal(days.length, 30);
    assert.deepEqual(days[0], { day: '2026-02-22', count: 24 });
    assert.deepEqual(days.at(-1), { day: '2026-03-23', count: 9 });
    assert.equal(days.reduce((sum, day) => sum + day.count, 0), 24 * 29 + 9);
  });
});
