// A real clamd (Debian's clamav-daemon; .ci/run installs it) on 127.0.0.1, in a temp folder, with a database of
// one signature written here (no download): the MD5 of the EICAR test file, so EICAR is found and nothing else.
// It can be stopped and started again on the same port, as an outage. A missing clamd fails, naming the package.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { findFreePort } from './smtp-server.js';
import { createTempDir } from './temp-dir.js';

/** The EICAR anti-virus test file: harmless, found by every scanner as "Eicar-Test-Signature" here. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

export interface TestClamd {
  port: number;
  /** `[storage] clamd`. */
  address: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const CLAMD = ['/usr/sbin/clamd', '/usr/bin/clamd'].find((path) => existsSync(path)) ?? 'clamd';

export async function startClamd(): Promise<TestClamd> {
  const temp = await createTempDir('clamd');
  const port = await findFreePort();
  const database = join(temp.dir, 'db');
  await mkdir(database);
  await writeFile(join(database, 'test.hdb'), `${createHash('md5').update(EICAR).digest('hex')}:${EICAR.length}:Eicar-Test-Signature\n`);
  const conf = join(temp.dir, 'clamd.conf');
  await writeFile(conf, [`DatabaseDirectory ${database}`, `TCPSocket ${port}`, 'TCPAddr 127.0.0.1', 'Foreground yes', `TemporaryDirectory ${temp.dir}`, 'LogTime no', ''].join('\n'));
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(CLAMD, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const failed = new Promise<never>((_resolve, reject) => {
      started.once('error', (error) => reject(new Error(`clamd could not be started (is the clamav-daemon package installed?): ${error.message}`)));
      started.once('exit', (code) => reject(new Error(`clamd exited (${code}):\n${output}`)));
    });
    failed.catch(() => {});
    const deadline = Date.now() + 30_000;
    while (!(await Promise.race([ping(port), failed]))) {
      if (Date.now() > deadline) throw new Error(`clamd did not answer PING within 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    address: `127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      await temp.remove();
    },
  };
}

/** Whether clamd answers PING with PONG on `port`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.once('connect', () => socket.end('zPING\0'));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(answer.startsWith('PONG')));
  });
}
