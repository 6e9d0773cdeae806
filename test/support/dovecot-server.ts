// A real Dovecot IMAP server (Debian's `dovecot-imapd`; .ci/run installs it) on 127.0.0.1, in a temp folder: for
// the bounce mailbox (docs/bounces.md "Where bounces come from"). One account with a plain password, Maildir in
// the folder, no TLS (cleartext login is allowed on loopback), logging to a file. Dovecot runs unprivileged as this
// process's user; under root, as the `dovecot` user the package creates (mail access as root is refused). It can
// be stopped and started again on the same port, as an outage. A missing dovecot fails the test, never skips it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import { findFreePort } from './smtp-server.js';
import { createTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

export interface TestDovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** A logged-in client (the caller logs it out). */
  connect(): Promise<ImapFlow>;
  /** Puts `raw` into `folder` (INBOX by default), as a delivery would. */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** How many messages each folder of the account holds. */
  counts(): Promise<Record<string, number>>;
  /** Dovecot's own log, for a failure's message. */
  log(): Promise<string>;
  /** Stops it, as an outage. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** /usr/sbin/dovecot (Debian), else dovecot on PATH. */
function findDovecot(): string {
  const candidates = ['/usr/sbin/dovecot', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((folder) => path.join(folder, 'dovecot'))];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error('dovecot not found in /usr/sbin or on PATH: install the Debian package "dovecot-imapd"');
  return found;
}

/** Who runs Dovecot: this process's user, or `dovecot` under root (with runuser, as the PostgreSQL helper does). */
async function serverUser(): Promise<{ name: string; group: string; uid: number; gid: number; prefix: string[] }> {
  if (process.getuid?.() !== 0) {
    const info = os.userInfo();
    const group = (await run('id', ['-gn'])).stdout.trim();
    return { name: info.username, group, uid: info.uid, gid: info.gid, prefix: [] };
  }
  try {
    const uid = Number((await run('id', ['-u', 'dovecot'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'dovecot'])).stdout.trim());
    const group = (await run('id', ['-gn', 'dovecot'])).stdout.trim();
    return { name: 'dovecot', group, uid, gid, prefix: ['runuser', '-u', 'dovecot', '--'] };
  } catch {
    throw new Error('running as root, and Dovecot refuses mail access as root: a "dovecot" user is needed (the Debian package "dovecot-core" creates it)');
  }
}

/** The installed version, "2.3.19.1" read as [2, 3, 19]. */
async function dovecotVersion(binary: string): Promise<number[]> {
  const { stdout } = await run(binary, ['--version']);
  const match = stdout.match(/^(\d+)\.(\d+)\.(\d+)/);
  if (!match) throw new Error(`cannot read the Dovecot version from "${stdout.trim()}"`);
  return match.slice(1).map(Number);
}

interface ConfigValues {
  version: number[];
  dir: string;
  port: number;
  user: { name: string; group: string; uid: number; gid: number };
  usersFile: string;
}

/**
 * dovecot.conf for the installed version: 2.4 renamed the settings this needs (mail_driver and mail_path for
 * mail_location, auth_allow_cleartext for disable_plaintext_auth, named passdb and userdb blocks) and wants
 * the config version first. Login processes are not chrooted: chroot needs root.
 */
function dovecotConfig({ version, dir, port, user, usersFile }: ConfigValues): string {
  const [major = 0, minor = 0] = version;
  const v24 = major > 2 || (major === 2 && minor >= 4);
  const common = [
    'protocols = imap',
    'listen = 127.0.0.1',
    `base_dir = ${dir}/run`,
    `state_dir = ${dir}/state`,
    `log_path = ${dir}/dovecot.log`,
    'ssl = no',
    'auth_mechanisms = plain login',
    // A refused login is answered at once, and no penalty slows the next logins from loopback.
    'auth_failure_delay = 0',
    'login_trusted_networks = 127.0.0.0/8',
    `default_internal_user = ${user.name}`,
    `default_internal_group = ${user.group}`,
    `default_login_user = ${user.name}`,
    `first_valid_uid = ${user.uid}`,
    `first_valid_gid = ${user.gid}`,
    'service imap-login {',
    '  inet_listener imap {',
    `    port = ${port}`,
    '  }',
    '  inet_listener imaps {',
    '    port = 0',
    '  }',
    '  chroot =',
    '}',
    'service anvil {',
    '  chroot =',
    '}',
  ];
  if (v24) {
    return [
      `dovecot_config_version = ${version.join('.')}`,
      `dovecot_storage_version = ${version.join('.')}`,
      ...common,
      'auth_allow_cleartext = yes',
      'mail_driver = maildir',
      `mail_path = ${dir}/Maildir`,
      'passdb passwd-file {',
      `  passwd_file_path = ${usersFile}`,
      '}',
      'userdb passwd-file {',
      `  passwd_file_path = ${usersFile}`,
      '}',
      '',
    ].join('\n');
  }
  return [
    ...common,
    'disable_plaintext_auth = no',
    `mail_location = maildir:${dir}/Maildir`,
    'passdb {',
    '  driver = passwd-file',
    `  args = ${usersFile}`,
    '}',
    'userdb {',
    '  driver = passwd-file',
    `  args = ${usersFile}`,
    '}',
    '',
  ].join('\n');
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startDovecotServer(): Promise<TestDovecot> {
  const binary = findDovecot();
  const version = await dovecotVersion(binary);
  const user = await serverUser();
  const temp = await createTempDir('dovecot');
  const dir = temp.dir;
  const account = { user: 'bounces', password: 'bounce-test-password' };
  const usersFile = path.join(dir, 'users');
  const configFile = path.join(dir, 'dovecot.conf');
  const logFile = path.join(dir, 'dovecot.log');
  const port = await findFreePort();
  for (const folder of ['run', 'state', 'home']) await mkdir(path.join(dir, folder));
  await writeFile(usersFile, `${account.user}:{PLAIN}${account.password}:${user.uid}:${user.gid}::${dir}/home::\n`);
  await writeFile(configFile, dovecotConfig({ version, dir, port, user, usersFile }));
  if (user.prefix.length > 0) {
    for (const entry of ['', 'run', 'state', 'home', 'users', 'dovecot.conf']) await chown(path.join(dir, entry), user.uid, user.gid);
  }
  const log = () => readFile(logFile, 'utf8').catch(() => '');

  let child: ChildProcess | undefined;
  const start = async () => {
    // A master killed by stop() may linger as a zombie for a moment; its pid file would make Dovecot think it
    // is still running.
    await rm(path.join(dir, 'run', 'master.pid'), { force: true });
    const [command, ...args] = [...user.prefix, binary, '-F', '-c', configFile];
    // A process group of its own, so that stopping ends the master and every process it started at once.
    const started = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child = started;
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let exited: string | undefined;
    started.once('error', (error) => (exited = `could not be started: ${error.message}`));
    started.once('exit', (code) => (exited = `exited (${code})`));
    try {
      await waitFor('dovecot to accept connections', async () => {
        if (exited !== undefined) throw new Error(exited);
        return (await accepts(port)) ? true : undefined;
      }, 15_000);
    } catch (error) {
      throw new Error(`dovecot did not start: ${(error as Error).message}\n${output}${await log()}`);
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // SIGKILL to the whole group: a crash, not a shutdown. A SIGTERM leaves the login processes (which hold the
    // listening socket) running for seconds after the master.
    process.kill(-running.pid!, 'SIGKILL');
    await exited;
    await waitFor('dovecot to stop listening', async () => ((await accepts(port)) ? undefined : true), 10_000);
  };
  await start();

  const connectClient = async () => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: account.user, pass: account.password }, logger: false, disableAutoIdle: true });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  return {
    host: '127.0.0.1',
    port,
    ...account,
    connect: connectClient,
    async append(raw, folder = 'INBOX') {
      const client = await connectClient();
      try {
        await client.append(folder, raw);
      } finally {
        await client.logout();
      }
    },
    async counts() {
      const client = await connectClient();
      try {
        const counts: Record<string, number> = {};
        for (const mailbox of await client.list()) {
          const status = await client.status(mailbox.path, { messages: true });
          counts[mailbox.path] = status ? (status.messages ?? 0) : 0;
        }
        return counts;
      } finally {
        await client.logout();
      }
    },
    log,
    stop,
    start,
    async close() {
      await stop().catch(() => undefined);
      await temp.remove();
    },
  };
}
