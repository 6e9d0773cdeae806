// The suppression list in data_dir (src/adapters/files/suppressions.ts): the BounceStore contract over two stores
// sharing one data_dir (a `serve` and a `postbox bounces` command), and the files it leaves: the list readable as
// JSON, a day's sent mails in their own file, and a list file broken by hand refused rather than overwritten.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { bouncesDirOf, createSuppressionFiles } from '../../../src/adapters/files/suppressions.js';
import type { BounceStore } from '../../../src/bounces/bounce-store.js';
import { newSentId } from '../../../src/bounces/verp.js';
import { entry, storeContract, T0 } from '../../bounces/store-contract.js';
import { createCountingRandomBytes } from '../../support/random-bytes.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dataDir(): Promise<string> {
  const temp = await createTempDir('suppressions');
  cleanups.push(temp.remove);
  return temp.dir;
}

describe('the suppression list in data_dir', () => {
  storeContract(async () => {
    const dir = await dataDir();
    return [createSuppressionFiles(dir), createSuppressionFiles(dir)] as [BounceStore, BounceStore];
  });

  it('keeps the list as readable JSON and each day of sent mails in a file of its own', async () => {
    const dir = await dataDir();
    const store = createSuppressionFiles(dir);
    await store.suppress(entry('Gone@Example.org'));
    const list = JSON.parse(await readFile(path.join(bouncesDirOf(dir), 'suppressions.json'), 'utf8'));
    assert.deepEqual(list.suppressed, [{ address: 'gone@example.org', kind: 'hard', at: new Date(T0).toISOString(), reason: entry('x').reason, source: 'imap' }]);
    await store.recordSent({ id: newSentId(T0, createCountingRandomBytes()), to: ['a@example.org'], owner: false, kind: 'receipt', form: '/contact', at: T0 });
    assert.deepEqual(await readdir(path.join(bouncesDirOf(dir), 'sent')), ['2026-11-02.jsonl']);
  });

  it('refuses a list file broken by hand instead of overwriting it', async () => {
    const dir = await dataDir();
    await mkdir(bouncesDirOf(dir), { recursive: true });
    await writeFile(path.join(bouncesDirOf(dir), 'suppressions.json'), '{"suppressed": [');
    const store = createSuppressionFiles(dir);
    await assert.rejects(store.suppress(entry('gone@example.org')), /not valid JSON/);
    assert.equal(await readFile(path.join(bouncesDirOf(dir), 'suppressions.json'), 'utf8'), '{"suppressed": [');
  });

  it('sees a change another process made within a second', async () => {
    const dir = await dataDir();
    const serve = createSuppressionFiles(dir);
    assert.equal(await serve.isSuppressed('gone@example.org'), false);
    await createSuppressionFiles(dir).suppress(entry('gone@example.org'));
    // The cache is checked against the file every 250 ms.
    await waitFor('the change to be seen', async () => ((await serve.isSuppressed('gone@example.org')) ? true : undefined), 1_000);
  });
});
