// `postbox users ...` as a real process (dist/cli.js), the password piped through stdin: add, list, reset-password
// and remove on the files of data_dir (and once on PostgreSQL), the refusals with their exit codes, and the audit
// lines each change leaves.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../src/kit/password-hash.js';
import { writeConfigFile, type TomlTable } from '../support/config.js';
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from '../support/postbox-process.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `postbox <args>` with `stdin` piped in (closed at once when there is none). */
async function postbox(args: string[], stdin = ''): Promise<Result> {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(stdin);
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(killer);
  return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

const PASSWORD = 'correct horse battery staple';

describe('postbox users', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let configHash: string;
  before(async () => {
    temp = await createTempDir('users-command');
    configHash = await hashPassword('the owner of the configuration', randomBytes(16), { N: 16384, r: 8, p: 1 });
  });
  after(async () => {
    await temp.remove();
  });

  const source = (dataDir: string, state?: TomlTable): TomlTable => ({
    data_dir: dataDir,
    server: { public_url: 'https://forms.example.com' },
    mail: { from: 'forms@example.com', to: 'owner@example.com', transport: 'file' },
    forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    admin: { users: [{ name: 'root', password_hash: configHash }] },
    ...(state && { state }),
  });

  it('adds, lists, resets and removes users in data_dir, each change in the audit log', async () => {
    const dataDir = path.join(temp.dir, 'data');
    const config = await writeConfigFile(temp.dir, source(dataDir), 'files.toml');
    const users = (args: string[], stdin?: string) => postbox(['users', ...args, '--config', config], stdin);

    const added = await users(['add', 'jane', '--role', 'editor', '--email', 'jane@example.com'], `${PASSWORD}\n`);
    assert.deepEqual(added, { code: 0, stdout: 'jane: added as editor\n', stderr: '' });
    assert.equal((await users(['add', 'adam', '--role', 'author'], `${PASSWORD}\n`)).code, 0);

    const stored = JSON.parse(await readFile(path.join(dataDir, 'admin-users.json'), 'utf8')) as { users: { name: string; role: string; email?: string; passwordHash: string; generation: number }[] };
    const jane = stored.users.find((user) => user.name === 'jane')!;
    assert.equal(jane.role, 'editor');
    assert.equal(jane.email, 'jane@example.com');
    assert.equal(jane.generation, 0);
    assert.match(jane.passwordHash, /^scrypt\$N=131072,r=8,p=1\$/);
    const parsed = parsePasswordHash(jane.passwordHash);
    assert.ok(!('problem' in parsed));
    assert.equal(await verifyPassword(parsed, PASSWORD), true);

    const listed = await users(['list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.stdout.split('\n').map((line) => line.trim().split(/\s{2,}/)),
      [['root', 'owner', 'configuration', '-', '-'], ['adam', 'author', 'store', '-', '-'], ['jane', 'editor', 'store', 'jane@example.com', '-'], ['']],
    );

    const reset = await users(['reset-password', 'jane'], 'another long password\n');
    assert.deepEqual(reset, { code: 0, stdout: 'jane: new password set; their sessions have ended\n', stderr: '' });
    const afterReset = JSON.parse(await readFile(path.join(dataDir, 'admin-users.json'), 'utf8')) as typeof stored;
    const janeAgain = afterReset.users.find((user) => user.name === 'jane')!;
    assert.equal(janeAgain.generation, 1);
    const newHash = parsePasswordHash(janeAgain.passwordHash);
    assert.ok(!('problem' in newHash));
    assert.equal(await verifyPassword(newHash, 'another long password'), true);
    assert.equal(await verifyPassword(newHash, PASSWORD), false);

    const removed = await users(['remove', 'adam']);
    assert.deepEqual(removed, { code: 0, stdout: 'adam: removed; their sessions have ended\n', stderr: '' });
    assert.deepEqual((await users(['list'])).stdout.split('\n').map((line) => line.split(/\s+/)[0]), ['root', 'jane', '']);

    const audit = (await readFile(path.join(dataDir, 'admin-audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      audit.map(({ at, ...event }) => (assert.equal(typeof at, 'number'), event)),
      [
        { event: 'user_added', subject: 'jane', network: 'cli' },
        { event: 'user_added', subject: 'adam', network: 'cli' },
        { event: 'password_reset', subject: 'jane', network: 'cli' },
        { event: 'user_removed', subject: 'adam', network: 'cli' },
      ],
    );
  });

  it('refuses what it cannot do with exit 1, changing nothing', async () => {
    const dataDir = path.join(temp.dir, 'refusals');
    const config = await writeConfigFile(temp.dir, source(dataDir), 'refusals.toml');
    const users = (args: string[], stdin?: string) => postbox(['users', ...args, '--config', config], stdin);
    assert.equal((await users(['add', 'jane', '--role', 'owner'], `${PASSWORD}\n`)).code, 0);
    const before = await readFile(path.join(dataDir, 'admin-users.json'), 'utf8');

    const refusals: [string[], string | undefined, RegExp][] = [
      [['add', 'root', '--role', 'editor'], `${PASSWORD}\n`, /^postbox: root is set in the configuration \(\[admin\] users\) already\n$/],
      [['remove', 'root'], undefined, /^postbox: root is set in the configuration \(\[admin\] users\): remove them from there\n$/],
      [['reset-password', 'root'], `${PASSWORD}\n`, /^postbox: root is set in the configuration .*postbox hash-password/],
      [['add', 'jane', '--role', 'author'], `${PASSWORD}\n`, /^postbox: there is a user jane already/],
      [['remove', 'nobody'], undefined, /^postbox: no user nobody in the store \("postbox users list" shows them\)\n$/],
      [['reset-password', 'nobody'], `${PASSWORD}\n`, /^postbox: no user nobody/],
      [['add', 'shorty', '--role', 'author'], 'eleven char\n', /^postbox: a password needs at least 12 characters\n$/],
      [['reset-password', 'jane'], 'eleven char\n', /^postbox: a password needs at least 12 characters\n$/],
      [['add', 'silent', '--role', 'author'], '', /^postbox: no password given\n$/],
    ];
    for (const [args, stdin, message] of refusals) {
      const result = await users(args, stdin);
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '', args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.equal(await readFile(path.join(dataDir, 'admin-users.json'), 'utf8'), before);
    const audit = (await readFile(path.join(dataDir, 'admin-audit.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(audit.length, 1, 'only the one add');
  });

  it('answers a command line it cannot run with exit 2 and the usage, before the configuration is read', async () => {
    const missing = path.join(temp.dir, 'no-such-config.toml');
    const usages: [string[], RegExp][] = [
      [['users'], /users needs list, add, remove or reset-password/],
      [['users', 'rename', 'jane'], /unknown users command "rename"/],
      [['users', 'add', 'jane'], /users add needs --role owner\|editor\|author/],
      [['users', 'add', 'jane', '--role', 'admin'], /--role is owner, editor, author, not "admin"/],
      [['users', 'add', 'jane', '--role', 'editor', '--email', 'not an address'], /--email must be one mail address/],
      [['users', 'add', '--role', 'editor'], /users add needs a NAME/],
      [['users', 'remove'], /users remove needs a NAME/],
      [['users', 'reset-password', 'jane', 'adam'], /unexpected "adam"/],
      [['users', 'list', '--role', 'owner'], /--role goes with users add/],
      [['users', 'remove', 'jane', '--email', 'jane@example.com'], /--email goes with users add/],
      [['queue', 'list', '--role', 'owner'], /--role goes with users: postbox users \.\.\./],
    ];
    for (const [args, message] of usages) {
      const result = await postbox([...args, '--config', missing]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.doesNotMatch(result.stderr, /no-such-config/, 'the configuration is not read');
    }
  });

  describe('on PostgreSQL', () => {
    let postgres: TestPostgres;
    before(async () => {
      postgres = await startPostgresServer();
    });
    after(async () => {
      await postgres?.close();
    });

    it('adds, lists and removes users in the admin_users table', async () => {
      const url = await postgres.createDatabase('users_command');
      const config = await writeConfigFile(temp.dir, source(path.join(temp.dir, 'pg-data'), { backend: 'postgres', url }), 'postgres.toml');
      const users = (args: string[], stdin?: string) => postbox(['users', ...args, '--config', config], stdin);
      assert.deepEqual(await users(['add', 'jane', '--role', 'author'], `${PASSWORD}\n`), { code: 0, stdout: 'jane: added as author\n', stderr: '' });
      assert.equal((await users(['add', 'jane', '--role', 'author'], `${PASSWORD}\n`)).code, 1);
      assert.deepEqual((await users(['list'])).stdout.trim().split('\n').map((line) => line.split(/\s{2,}/).slice(0, 3)), [['root', 'owner', 'configuration'], ['jane', 'author', 'store']]);
      assert.equal((await users(['reset-password', 'jane'], `${PASSWORD}!\n`)).code, 0);
      assert.equal((await users(['remove', 'jane'])).code, 0);
      assert.equal((await users(['remove', 'jane'])).code, 1);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        assert.deepEqual((await client.query('SELECT name FROM admin_users')).rows, []);
        const { rows } = await client.query<{ event: string; subject: string; network: string; user_name: string | null }>('SELECT event, subject, network, user_name FROM admin_audit ORDER BY id');
        assert.deepEqual(rows, [
          { event: 'user_added', subject: 'jane', network: 'cli', user_name: null },
          { event: 'password_reset', subject: 'jane', network: 'cli', user_name: null },
          { event: 'user_removed', subject: 'jane', network: 'cli', user_name: null },
        ]);
      } finally {
        await client.end();
      }
    });
  });
});
