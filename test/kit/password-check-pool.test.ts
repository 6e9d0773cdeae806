// The password check pool (docs/admin.md "Signing in"): the same answers as verifyPassword, at most 2 checks at a time
// on threads of their own, 8 more waiting and any beyond refused at once; file reads go on meanwhile (they need
// libuv's thread pool, which the checks leave alone); the threads hold a process only while they check and end at close();
// and the worker runs the same from a one-file esbuild bundle.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { createPasswordCheckPool, PasswordCheckBusyError, type CheckSpan } from '../../src/kit/password-check-pool.js';
import { hashPassword, parsePasswordHash, verifyPassword, type PasswordHash } from '../../src/kit/password-hash.js';
import { createTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const POOL_MODULE = fileURLToPath(new URL('../../src/kit/password-check-pool.ts', import.meta.url));

const hashOf = async (password: string, N = 16384): Promise<PasswordHash> => {
  const parsed = parsePasswordHash(await hashPassword(password, Buffer.alloc(16, 3), { N, r: 8, p: 1 }));
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
};

/** The most spans running at one instant. */
function mostAtOnce(spans: readonly CheckSpan[]): number {
  const edges = spans.flatMap((span) => [
    { at: span.startedAt, step: 1 },
    { at: span.endedAt, step: -1 },
  ]);
  // An end and a start at the same instant: the end first.
  edges.sort((first, second) => first.at - second.at || first.step - second.step);
  let running = 0;
  let most = 0;
  for (const edge of edges) {
    running += edge.step;
    most = Math.max(most, running);
  }
  return most;
}

describe('the password check pool', () => {
  const pools: Array<{ close(): Promise<void> }> = [];
  after(async () => {
    for (const pool of pools) await pool.close();
  });

  it('answers as verifyPassword does: the right password, a wrong one, and the NFC form of a name', async () => {
    const pool = createPasswordCheckPool();
    pools.push(pool);
    const stored = await hashOf('caf\u00e9 au lait, please');
    const candidates = ['caf\u00e9 au lait, please', 'cafe\u0301 au lait, please', 'caf\u00e9 au lait, pleasE', ''];
    const pooled = await Promise.all(candidates.map((candidate) => pool.check(stored, candidate)));
    const direct = await Promise.all(candidates.map((candidate) => verifyPassword(stored, candidate)));
    assert.deepEqual(pooled, [true, true, false, false]);
    assert.deepEqual(pooled, direct);
  });

  it('runs at most 2 checks at a time, queues 8, and refuses any more at once', async () => {
    const spans: CheckSpan[] = [];
    const pool = createPasswordCheckPool({ onChecked: (span) => spans.push(span) });
    pools.push(pool);
    const stored = await hashOf('a long enough secret');
    const settled: string[] = [];
    const attempts = Array.from({ length: 14 }, (_, index) =>
      pool.check(stored, index === 3 ? 'a long enough secret' : `wrong ${index}`).then(
        (ok) => settled.push(`checked ${index}: ${ok}`),
        (error: unknown) => settled.push(error instanceof PasswordCheckBusyError ? `busy ${index}` : `failed ${index}: ${String(error)}`),
      ),
    );
    await Promise.all(attempts);
    // The four beyond 2 running and 8 waiting were refused before any check ended.
    assert.deepEqual(settled.slice(0, 4), ['busy 10', 'busy 11', 'busy 12', 'busy 13']);
    assert.deepEqual(settled.slice(4).sort(), Array.from({ length: 10 }, (_, index) => `checked ${index}: ${index === 3}`).sort());
    assert.equal(spans.length, 10);
    assert.equal(mostAtOnce(spans), 2, 'two threads, never more');
    // Once the queue drained, checks are taken again.
    assert.equal(await pool.check(stored, 'a long enough secret'), true);
  });

  it("leaves libuv's thread pool to file reads while every thread checks and the queue is full", async () => {
    const pool = createPasswordCheckPool();
    pools.push(pool);
    const stored = await hashOf('a long enough secret', 32768);
    await pool.check(stored, 'warm both threads up');
    let firstCheckDone = false;
    const checks = Array.from({ length: 10 }, (_, index) =>
      pool.check(stored, `wrong ${index}`).then(() => {
        firstCheckDone = true;
      }),
    );
    // Eight reads at once: with the checks on libuv's 4 threads they would wait behind them.
    const reads = await Promise.all(Array.from({ length: 8 }, () => readFile(POOL_MODULE, 'utf8').then(() => firstCheckDone)));
    assert.deepEqual(reads, Array(8).fill(false), 'every read finished before the first check did');
    await Promise.all(checks);
  });

  it('refuses what waits at close(), and refuses checks after it', async () => {
    const pool = createPasswordCheckPool({ threads: 1, queue: 2 });
    const stored = await hashOf('a long enough secret');
    const outcomes = [0, 1, 2].map((index) => pool.check(stored, `wrong ${index}`).then(String, (error: unknown) => (error as Error).name));
    await pool.close();
    const [, second, third] = await Promise.all(outcomes);
    assert.deepEqual([second, third], ['PasswordCheckBusyError', 'PasswordCheckBusyError']);
    await assert.rejects(pool.check(stored, 'late'), PasswordCheckBusyError);
  });

  it('holds a process only while it checks, and works the same from a one-file esbuild bundle', async () => {
    const temp = await createTempDir('check-pool');
    try {
      const entry = path.join(temp.dir, 'entry.mts');
      // A check is answered, and the pool is never closed: the process must end by itself all the same.
      await writeFile(
        entry,
        [
          `import { createPasswordCheckPool } from ${JSON.stringify(POOL_MODULE)};`,
          `import { hashPassword, parsePasswordHash } from ${JSON.stringify(POOL_MODULE.replace('password-check-pool.ts', 'password-hash.ts'))};`,
          "const stored = parsePasswordHash(await hashPassword('a long enough secret', Buffer.alloc(16, 1), { N: 16384, r: 8, p: 1 }));",
          'const pool = createPasswordCheckPool();',
          "console.log(String(await pool.check(stored, 'a long enough secret')), String(await pool.check(stored, 'wrong')));",
        ].join('\n'),
      );
      const bundle = path.join(temp.dir, 'bundle.mjs');
      await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', target: 'node22', format: 'esm', logLevel: 'silent' });
      const fromBundle = await run(process.execPath, [bundle], { timeout: 20_000 });
      assert.equal(fromBundle.stdout.trim(), 'true false');
      const fromSource = await run(process.execPath, ['--import', 'tsx', entry], { timeout: 20_000 });
      assert.equal(fromSource.stdout.trim(), 'true false');
    } finally {
      await temp.remove();
    }
  });
});
