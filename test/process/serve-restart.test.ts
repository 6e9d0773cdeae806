// The real `postbox serve` process (dist/cli.js): listening on port 0, exhausting a bucket, SIGTERM with exit 0
// and the rate-limit snapshot, a restart that still limits the same client (its address, 127.0.0.1, is the key;
// the restart listens on a fresh port 0 too, so no other process can take the port in between).
import assert from 'node:assert/strict';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile, type TomlTable } from '../support/config.js';
import { startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };

function configFor(dataDir: string): TomlTable {
  return {
    data_dir: dataDir,
    server: { listen: '127.0.0.1:0', metrics_token: '${POSTBOX_TEST_METRICS_TOKEN}' },
    mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com' },
    forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 2 }],
  };
}

const env = { ...process.env, POSTBOX_TEST_METRICS_TOKEN: 'process-test-token' };

async function waitForHealth(baseUrl: string): Promise<void> {
  await waitFor(`${baseUrl}/health`, async () => {
    // Each try is bounded too: a connection that never answers is retried, not waited on forever.
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    return response?.status === 200 ? true : undefined;
  });
}

function post(baseUrl: string): Promise<Response> {
  return fetch(`${baseUrl}/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADA) });
}

describe('postbox serve as a real process', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  const running: ServeProcess[] = [];
  before(async () => {
    temp = await createTempDir('process');
  });
  after(async () => {
    for (const child of running) await child.stop('SIGKILL');
    await temp.remove();
  });

  it('keeps a client limited across SIGTERM and a restart', async () => {
    const dataDir = path.join(temp.dir, 'data');
    const configFile = await writeConfigFile(temp.dir, configFor(dataDir));
    const first = await startPostboxServe(configFile, ['forms'], { env });
    running.push(first);
    const listening = first.logs.find((line) => line.event === 'listening');
    assert.deepEqual(Object.keys(listening ?? {}).filter((key) => !['level', 'time', 'msg'].includes(key)).sort(), ['address', 'event', 'service']);
    const baseUrl = first.addresses.forms as string;
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    await waitForHealth(baseUrl);

    assert.equal((await post(baseUrl)).status, 200);
    assert.equal((await post(baseUrl)).status, 200);
    const limited = await post(baseUrl);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1800');
    // The mail queue sends them just after the answers.
    await waitFor('two owner mails and two receipts in the outbox', async () => {
      const outbox = await readdir(path.join(dataDir, 'outbox')).catch(() => [] as string[]);
      return outbox.filter((name) => name.endsWith('.eml')).length === 4 ? true : undefined;
    });
    assert.equal((await fetch(`${baseUrl}/metrics`)).status, 401, 'metrics_token came from the environment');
    assert.equal((await fetch(`${baseUrl}/metrics`, { headers: { authorization: 'Bearer process-test-token' } })).status, 200);

    const exit = await first.stop('SIGTERM');
    assert.deepEqual(exit, { code: 0, signal: null });
    const snapshot = await readFile(path.join(dataDir, 'ratelimit-snapshot.json'), 'utf8');
    assert.ok(snapshot.includes('127.0.0.1'), 'the limited client is in the snapshot');
    assert.ok(first.logs.some((line) => line.event === 'ratelimit_snapshot_saved'));

    const second = await startPostboxServe(configFile, ['forms'], { env });
    running.push(second);
    const secondUrl = second.addresses.forms as string;
    await waitForHealth(secondUrl);
    const stillLimited = await post(secondUrl);
    assert.equal(stillLimited.status, 429, 'the bucket survived the restart');
    assert.ok(Number(stillLimited.headers.get('retry-after')) > 1000);
    assert.ok(second.logs.some((line) => line.event === 'ratelimit_snapshot_loaded'));

    assert.deepEqual(await second.stop('SIGINT'), { code: 0, signal: null });
    await access(path.join(dataDir, 'ratelimit-snapshot.json'));
    const requestLines = [...first.logs, ...second.logs].filter((line) => line.msg === 'request');
    assert.ok(requestLines.length >= 7);
    assert.ok(!JSON.stringify([...first.logs, ...second.logs]).includes('ada@example.org'), 'no submitted address in the logs');
  });
});
