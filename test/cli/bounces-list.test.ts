// `postbox bounces list [--format json]` and `postbox bounces remove ADDRESS` (src/cli/bounces-list.ts) on the files
// of data_dir, as main.ts runs them: one line per address (address, kind, since, reason), the same as JSON, a removal
// a running service's own store sees, and every misuse told before anything is read.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createSuppressionFiles } from '../../src/adapters/files/suppressions.js';
import { openBackend } from '../../src/app/open-backend.js';
import { parseBouncesListCommand, runBouncesListCommand } from '../../src/cli/bounces-list.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { loadTestConfig } from '../support/config.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs one command line on the config of `dataDir`, as `postbox bounces ...` does. */
async function run(dataDir: string, args: string[], format?: string): Promise<{ code: number; out: string; error: string }> {
  const read = parseBouncesListCommand(args, { format });
  if ('problem' in read) throw new Error(read.problem);
  const config = loadTestConfig({ data_dir: dataDir, mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: [{ path: '/contact', type: 'contact' }] }, dataDir);
  const backend = openBackend(config, createSilentLogger());
  let out = '';
  let error = '';
  try {
    const code = await runBouncesListCommand(read, backend, { out: (text) => void (out += text), error: (text) => void (error += text) });
    return { code, out, error };
  } finally {
    await backend.close();
  }
}

describe('postbox bounces', () => {
  it('lists one line per address, newest first, and the same as JSON', async () => {
    const temp = await createTempDir('bounces-cli');
    cleanups.push(temp.remove);
    const store = createSuppressionFiles(temp.dir);
    await store.suppress({ address: 'gone@example.org', kind: 'hard', at: T0, reason: '550 5.1.1 user unknown', source: 'imap' });
    await store.suppress({ address: 'reader@example.org', kind: 'complaint', at: T0 + 60_000, reason: 'abuse', source: 'ses' });

    const text = await run(temp.dir, ['list']);
    assert.equal(text.code, 0);
    assert.equal(
      text.out,
      [
        '2 suppressed',
        'reader@example.org  complaint  2026-11-02T09:01:00.000Z  abuse (ses)',
        'gone@example.org    hard       2026-11-02T09:00:00.000Z  550 5.1.1 user unknown (imap)',
        '',
      ].join('\n'),
    );
    const json = await run(temp.dir, ['list'], 'json');
    assert.deepEqual(JSON.parse(json.out), [
      { address: 'reader@example.org', kind: 'complaint', at: '2026-11-02T09:01:00.000Z', reason: 'abuse', source: 'ses' },
      { address: 'gone@example.org', kind: 'hard', at: '2026-11-02T09:00:00.000Z', reason: '550 5.1.1 user unknown', source: 'imap' },
    ]);
    assert.equal((await run(temp.dir, ['list'])).out.split('\n')[0], '2 suppressed');
  });

  it('removes an address, which the store of a running service sees; a second removal is exit 1', async () => {
    const temp = await createTempDir('bounces-cli');
    cleanups.push(temp.remove);
    const serving = createSuppressionFiles(temp.dir);
    await serving.suppress({ address: 'gone@example.org', kind: 'hard', at: T0, reason: 'user unknown', source: 'smtp' });
    assert.equal(await serving.isSuppressed('gone@example.org'), true);

    const removed = await run(temp.dir, ['remove', 'Gone@Example.org']);
    assert.deepEqual(removed, { code: 0, out: 'gone@example.org: taken off the suppression list; mail to it is sent again\n', error: '' });
    await waitFor('the running store to see the removal within a second', async () => ((await serving.isSuppressed('gone@example.org')) ? undefined : true), 1_000);
    const again = await run(temp.dir, ['remove', 'gone@example.org']);
    assert.equal(again.code, 1);
    assert.match(again.error, /is not on the suppression list/);
    assert.equal((await run(temp.dir, ['list'])).out, '0 suppressed\n');
  });

  it('tells a misuse before anything is read', () => {
    assert.deepEqual(parseBouncesListCommand([], { format: undefined }), { problem: 'bounces needs classify, list or remove' });
    assert.deepEqual(parseBouncesListCommand(['drop'], { format: undefined }), { problem: 'unknown bounces command "drop"' });
    assert.deepEqual(parseBouncesListCommand(['list'], { format: 'csv' }), { problem: '--format is text or json, not "csv"' });
    assert.deepEqual(parseBouncesListCommand(['remove'], { format: undefined }), { problem: 'bounces remove takes the address to take off the list' });
    assert.deepEqual(parseBouncesListCommand(['remove', 'a@example.org', 'b@example.org'], { format: undefined }), { problem: 'unexpected "b@example.org"' });
    assert.deepEqual(parseBouncesListCommand(['remove', 'a@example.org'], { format: 'json' }), { problem: '--format goes with bounces list' });
  });
});
