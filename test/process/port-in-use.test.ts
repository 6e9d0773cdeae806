// `postbox serve` on a port another process holds: one line on stderr, exit 1, and nothing of data_dir read or
// written; the ports are bound before the services load their files (src/cli/serve.ts).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RATE_LIMIT_SNAPSHOT_FILE } from '../../src/forms/rate-limits.js';
import { createRateLimiter, encodeRateLimitFile } from '../../src/forms/rules/rate-limiter.js';
import { writeConfigFile } from '../support/config.js';
import { runPostbox } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

/** A listening socket on a free loopback port, as another program holding the port would be. */
async function occupyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function configFor(dataDir: string, formsPort: number, blogPort: number, contentDir: string) {
  return {
    data_dir: dataDir,
    server: { listen: `127.0.0.1:${formsPort}` },
    mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com' },
    forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 2 }],
    site: { title: 'Blog', base_url: 'https://example.com' },
    blog: { listen: `127.0.0.1:${blogPort}`, content_dir: contentDir },
  };
}

describe('postbox serve on a port in use', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let held: Awaited<ReturnType<typeof occupyPort>>;
  before(async () => {
    temp = await createTempDir('port-in-use');
    held = await occupyPort();
  });
  after(async () => {
    await held.close();
    await temp.remove();
  });

  it('prints one line, exits 1, and leaves the rate-limit snapshot as it was', async () => {
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    // A snapshot with a client that used a token: a start that loaded it and saved on its way out would rewrite it.
    const now = Date.now();
    const limiter = createRateLimiter(2, undefined, now);
    limiter.take('127.0.0.1', now);
    const snapshotFile = path.join(dataDir, RATE_LIMIT_SNAPSHOT_FILE);
    await writeFile(snapshotFile, encodeRateLimitFile(now, { '/contact': limiter.toSnapshot(now) }));
    const past = new Date('2024-01-01T00:00:00Z');
    await utimes(snapshotFile, past, past);
    const before = { bytes: await readFile(snapshotFile), mtimeMs: (await stat(snapshotFile)).mtimeMs };

    const file = await writeConfigFile(temp.dir, configFor(dataDir, held.port, 0, temp.dir), 'forms-port-taken.toml');
    const result = await runPostbox(['serve', '--config', file]);

    assert.equal(result.code, 1);
    assert.equal(result.stderr, `postbox: cannot listen on 127.0.0.1:${held.port}: address already in use\n`);
    assert.equal(result.stdout, '', 'nothing logged: no service was built');
    assert.deepEqual(await readFile(snapshotFile), before.bytes);
    assert.equal((await stat(snapshotFile)).mtimeMs, before.mtimeMs);
  });

  it('binds every port before building any service: a blog port in use leaves a new data_dir unmade', async () => {
    const dataDir = path.join(temp.dir, 'never-made');
    const file = await writeConfigFile(temp.dir, configFor(dataDir, 0, held.port, temp.dir), 'blog-port-taken.toml');
    const result = await runPostbox(['serve', '--config', file]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `postbox: cannot listen on 127.0.0.1:${held.port}: address already in use\n`);
    assert.equal(existsSync(dataDir), false, 'the forms service made no data_dir');
  });
});
