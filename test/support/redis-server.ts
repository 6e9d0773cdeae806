// A real redis-server (Debian's package; .ci/run installs it) on 127.0.0.1, in a temp folder, without
// persistence: for the shared rate limits of several replicas. It can be stopped and started again on the
// same port, as an outage. A missing redis-server fails the test that needs it, never skips it.
import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from './smtp-server.js';
import { createTempDir } from './temp-dir.js';

export interface TestRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startRedisServer(): Promise<TestRedis> {
  const temp = await createTempDir('redis');
  const port = await findFreePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', temp.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
      started.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not be started (is the redis-server package installed?): ${error.message}`));
      });
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
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
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop();
      await temp.remove();
    },
  };
}
