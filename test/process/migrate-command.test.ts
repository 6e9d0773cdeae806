// `postbox migrate [--from-files]`: the schema brought up to date against a real PostgreSQL, the importers run in
// order with their counts printed, and every refusal said in one line without the url's password.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MIGRATIONS } from '../../src/adapters/postgres/migrations.js';
import { runMigrateCommand } from '../../src/cli/migrate.js';
import type { FileImporter } from '../../src/adapters/postgres/file-importers.js';
import { loadTestConfig, writeConfigFile, type TomlTable } from '../support/config.js';
import { runPostbox } from '../support/postbox-process.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';

describe('postbox migrate', () => {
  let postgres: TestPostgres;
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  before(async () => {
    postgres = await startPostgresServer();
    temp = await createTempDir('migrate-command');
  });
  after(async () => {
    await postgres.close();
    await temp.remove();
  });

  const source = (state: TomlTable): TomlTable => ({
    data_dir: path.join(temp.dir, 'data'),
    server: { public_url: 'https://forms.example.com' },
    mail: { from: 'forms@example.com', to: 'owner@example.com' },
    forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    state,
  });
  const capture = () => {
    const out: string[] = [];
    const error: string[] = [];
    return { out, error, io: { out: (text: string) => void out.push(text), error: (text: string) => void error.push(text) } };
  };

  it('migrates the schema once, then finds it up to date (the real command)', async () => {
    const url = await postgres.createDatabase('cli');
    const file = await writeConfigFile(temp.dir, source({ backend: 'postgres', url }), 'cli.toml');
    const first = await runPostbox(['migrate', '--config', file]);
    assert.equal(first.code, 0, first.stderr);
    const versions = MIGRATIONS.map((migration) => migration.version).join(', ');
    assert.match(first.stdout, new RegExp(`^127\\.0\\.0\\.1:\\d+/cli: schema migrated \\(version ${versions}\\)\n$`));
    const second = await runPostbox(['migrate', '--config', file]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /: schema up to date\n$/);
  });

  it('runs the importers in order, prints their counts, and says how to go on when one fails', async () => {
    const url = await postgres.createDatabase('importers');
    const config = loadTestConfig(source({ backend: 'postgres', url }), temp.dir);
    const ran: string[] = [];
    const importers: FileImporter[] = [
      { name: 'form archives', run: async (dataDir, _config, state) => (ran.push(`archives ${dataDir}`), await state.query('SELECT 1'), { copied: 3, skipped: 1 }) },
      { name: 'subscribers', run: async () => (ran.push('subscribers'), { copied: 0, skipped: 4 }) },
    ];
    const done = capture();
    assert.equal(await runMigrateCommand({ fromFiles: true }, config, done.io, importers), 0, done.error.join(''));
    assert.deepEqual(ran, [`archives ${config.data_dir}`, 'subscribers']);
    assert.deepEqual(done.out.slice(1), ['form archives: copied 3, already there 1\n', 'subscribers: copied 0, already there 4\n']);

    const failing = capture();
    const broken: FileImporter[] = [{ name: 'queue', run: async () => Promise.reject(new Error('queue/seg-1 is not JSON')) }];
    assert.equal(await runMigrateCommand({ fromFiles: true }, config, failing.io, broken), 1);
    assert.match(failing.error.join(''), /stopped: .*queue\/seg-1 is not JSON; run the command again to go on\n$/);
  });

  it('copies nothing without --from-files', async () => {
    const url = await postgres.createDatabase('schema_only');
    const config = loadTestConfig(source({ backend: 'postgres', url }), temp.dir);
    let ran = false;
    const result = capture();
    assert.equal(await runMigrateCommand({ fromFiles: false }, config, result.io, [{ name: 'x', run: async () => ((ran = true), { copied: 0, skipped: 0 }) }]), 0);
    assert.equal(ran, false);
  });

  it('refuses the files backend, an unreachable database (without its password) and stray arguments', async () => {
    const files = capture();
    assert.equal(await runMigrateCommand({ fromFiles: true }, loadTestConfig(source({ backend: 'files' }), temp.dir), files.io), 1);
    assert.match(files.error.join(''), /migrate needs \[state\] backend = "postgres"/);

    const closedPort = await writeConfigFile(temp.dir, source({ backend: 'postgres', url: 'postgres://owner:s3cret@127.0.0.1:1/postbox' }), 'closed.toml');
    const unreachable = await runPostbox(['migrate', '--config', closedPort]);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^postbox: PostgreSQL at 127\.0\.0\.1:1\/postbox: .*ECONNREFUSED/);
    assert.doesNotMatch(unreachable.stderr, /s3cret/);

    const stray = await runPostbox(['migrate', 'now', '--config', closedPort]);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /postbox migrate \[--from-files\]/);
    const misplaced = await runPostbox(['serve', '--from-files', '--config', closedPort]);
    assert.equal(misplaced.code, 2);
    assert.equal(misplaced.stderr, 'postbox: --from-files goes with migrate: postbox migrate ...\n');
  });
});
