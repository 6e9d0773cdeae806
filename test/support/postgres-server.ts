// A real PostgreSQL cluster (Debian's `postgresql` package; .ci/run installs it) on 127.0.0.1, in a temp folder: for
// the shared state of several replicas (docs/configuration.md "[state]"). It can be stopped and started again on the
// same port, as an outage. Missing binaries fail the test that needs them, never skip it. initdb refuses to run as
// root, so under root the cluster runs as the `postgres` user the Debian package creates.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findFreePort } from './smtp-server.js';
import { createTempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface TestPostgres {
  port: number;
  /** postgres://postbox@127.0.0.1:<port>/postbox (trust authentication on loopback). */
  url: string;
  /** A fresh empty database `name` on this cluster, and its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops it at once (`-m immediate`), as a crash or an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** The folder of initdb and pg_ctl: the newest /usr/lib/postgresql/<version>/bin (Debian), else the PATH. */
export function findPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+(\.\d+)?$/.test(name) && existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((first, second) => Number(second) - Number(first))
    : [];
  if (versions.length > 0) return path.join(root, versions[0]!, 'bin');
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder && existsSync(path.join(folder, 'initdb')) && existsSync(path.join(folder, 'pg_ctl'))) return folder;
  }
  throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/<version>/bin or on PATH: install the Debian package "postgresql"');
}

/** Who runs the cluster: this process's user, or `postgres` when this is root (initdb refuses root). */
async function clusterUser(): Promise<{ prefix: string[]; uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return { prefix: [] };
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
  } catch {
    throw new Error('running as root, and initdb refuses root: a "postgres" user is needed (the Debian package "postgresql" creates it)');
  }
}

/** `durable`: fsync on, as a production server runs (the bench); tests leave it off, the cluster is thrown away. */
export async function startPostgresServer(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const user = await clusterUser();
  const temp = await createTempDir('postgres');
  const dataDir = path.join(temp.dir, 'data');
  const logFile = path.join(temp.dir, 'server.log');
  if (user.uid !== undefined) await chown(temp.dir, user.uid, user.gid!);
  const as = async (program: string, args: string[]) => {
    const [command, ...rest] = [...user.prefix, path.join(bin, program), ...args];
    try {
      return await run(command!, rest, { cwd: temp.dir, timeout: 60_000 });
    } catch (error) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
      throw new Error(`${program} ${args[0] ?? ''} failed: ${(error as Error).message}\n${stdout}${stderr}${log}`);
    }
  };
  await as('initdb', ['-D', dataDir, '-U', 'postbox', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await findFreePort();
  // fsync off: the cluster is thrown away, and an immediate stop still keeps what the kernel holds.
  const serverOptions = `-p ${port} -k ${temp.dir} -c listen_addresses=127.0.0.1${options.durable ? '' : ' -c fsync=off -c full_page_writes=off'}`;
  const start = async () => {
    await as('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', serverOptions]);
  };
  let running = false;
  const stop = async () => {
    if (!running) return;
    running = false;
    await as('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30']);
  };
  await start();
  running = true;
  const createDatabase = async (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postbox', database: 'postgres' });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return `postgres://postbox@127.0.0.1:${port}/${name}`;
  };
  const url = await createDatabase('postbox');
  return {
    port,
    url,
    createDatabase,
    stop,
    async start() {
      await start();
      running = true;
    },
    async close() {
      await stop().catch(() => undefined);
      await temp.remove();
    },
  };
}
