// `postbox migrate --from-files` for /admin's records (src/adapters/postgres/import-admin-files.ts), against a real
// PostgreSQL: every configured form's archive lines become rows in the file's order, the sessions file becomes
// rows whose cookies keep working, and a second run (even after appends and a deletion) copies nothing twice.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSessionStore } from '../../../src/admin/sessions.js';
import { createSessionFile } from '../../../src/adapters/files/session-file.js';
import { createPostgresSessionStore } from '../../../src/adapters/postgres/admin-sessions.js';
import { createPostgresArchiveReader } from '../../../src/adapters/postgres/archive-reader.js';
import { importAdminSessionsFromFiles, importArchivesFromFiles } from '../../../src/adapters/postgres/import-admin-files.js';
import type { ImportCount } from '../../../src/adapters/postgres/import-count.js';
import type { Config } from '../../../src/config/config.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { createTestClock } from '../../support/clock.js';
import { loadTestConfig } from '../../support/config.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';

/** The archives, then the sessions file, as `postbox migrate --from-files` runs them; the counts added up. */
async function importAdminFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  const archives = await importArchivesFromFiles(dataDir, config, state);
  const sessions = await importAdminSessionsFromFiles(dataDir, config, state);
  return { copied: archives.copied + sessions.copied, skipped: archives.skipped + sessions.skipped };
}

const lineOf = (form: string, name: string, second: number) =>
  JSON.stringify({ received_at: `2026-02-01T10:00:0${second}.000Z`, form, type: 'contact', name, email: `${name.toLowerCase()}@example.org`, message: 'Hi' });

describe('importing /admin records from data_dir into PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState;
  let temp: { dir: string; remove(): Promise<void> };
  before(async () => {
    postgres = await startPostgresServer();
    state = createPostgresState(await postgres.createDatabase('import_admin'), captureLogs().logger);
    await state.migrated();
    temp = await createTempDir('import-admin');
  });
  after(async () => {
    await state.close();
    await postgres.close();
    await temp.remove();
  });

  it('copies archives and sessions once, and only what is new on a second run', async () => {
    const dataDir = temp.dir;
    const origins = ['https://example.com'];
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com' },
        forms: [
          { path: '/contact', type: 'contact', allowed_origins: origins, archive: 'shared.jsonl' },
          { path: '/feedback', type: 'feedback', allowed_origins: origins, archive: 'shared.jsonl' },
          { path: '/quote', type: 'contact', allowed_origins: origins, archive: 'quotes.jsonl' },
          { path: '/plain', type: 'generic', allowed_origins: origins },
        ],
      },
      dataDir,
    );
    const twin = lineOf('/contact', 'Twin', 1);
    await writeFile(path.join(dataDir, 'shared.jsonl'), [lineOf('/contact', 'Ada', 0), twin, twin, lineOf('/feedback', 'Grace', 2), '{"torn'].join('\n') + '\n');
    await writeFile(path.join(dataDir, 'quotes.jsonl'), `${lineOf('/quote', 'Edsger', 3)}\n`);
    const clock = createTestClock();
    const fileSessions = await createSessionStore({ file: createSessionFile(dataDir), clock, randomBytes, idleMs: 12 * 3_600_000, maxMs: 168 * 3_600_000, onSaveError: () => undefined });
    const { id } = await fileSessions.start('jane', 3);
    await fileSessions.close();

    assert.deepEqual(await importAdminFromFiles(dataDir, config, state), { copied: 6, skipped: 1 }, 'five lines and a session; the torn line skipped');
    assert.deepEqual(await importAdminFromFiles(dataDir, config, state), { copied: 0, skipped: 7 }, 'a second run copies nothing');

    const reader = createPostgresArchiveReader(state);
    const contact = await reader.readPage({ archive: 'shared.jsonl', form: '/contact' }, { page: 1, size: 50, terms: [] });
    assert.deepEqual(
      contact.entries.map((entry) => entry.fields.name),
      ['Twin', 'Twin', 'Ada'],
      'newest first, both identical lines kept',
    );
    const [quote] = (await reader.readPage({ archive: 'quotes.jsonl', form: '/quote' }, { page: 1, size: 50, terms: [] })).entries;
    assert.equal(quote?.received_at, '2026-02-01T10:00:03.000Z');

    const sessions = createPostgresSessionStore(state, { clock, randomBytes, idleMs: 12 * 3_600_000, maxMs: 168 * 3_600_000, onSaveError: () => undefined });
    const found = await sessions.find(id);
    assert.equal(found?.user, 'jane', 'a cookie of the file still signs in');
    assert.equal(found?.generation, 3, 'in the generation it began in');

    // Still on files for a while: a line deleted from the inbox and one appended; only the new one is copied.
    await writeFile(path.join(dataDir, 'shared.jsonl'), [twin, twin, lineOf('/feedback', 'Grace', 2), lineOf('/contact', 'Barbara', 4)].join('\n') + '\n');
    await appendFile(path.join(dataDir, 'quotes.jsonl'), '\n');
    assert.deepEqual(await importAdminFromFiles(dataDir, config, state), { copied: 1, skipped: 5 });
    const { rows } = await state.query<{ count: string }>('SELECT count(*) AS count FROM archives');
    assert.equal(Number(rows[0]!.count), 6);
    await sessions.close();
  });
});
