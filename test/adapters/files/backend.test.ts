// The files backend's records across a restart: the device cookies' key is derived from data_dir's secret, so a
// browser that signed in before is still known to the next `serve` (docs/admin.md "Signing in").
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openBackend } from '../../../src/adapters/files/backend.js';
import { createSilentLogger } from '../../../src/kit/log.js';
import { loadTestConfig } from '../../support/config.js';
import { withTempDir } from '../../support/temp-dir.js';

describe('the files backend', () => {
  it('gives the same device key to every process over one data_dir, and another to another data_dir', async () => {
    await withTempDir('files-backend', async (dir) => {
      const configOf = (name: string) =>
        loadTestConfig(
          {
            data_dir: path.join(dir, name),
            mail: { from: 'forms@example.com', to: 'owner@example.com' },
            forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
          },
          dir,
        );
      const first = openBackend(configOf('one'), createSilentLogger());
      const again = openBackend(configOf('one'), createSilentLogger());
      const other = openBackend(configOf('two'), createSilentLogger());
      const [a, b, c] = await Promise.all([first.admin.throttle.deviceKey(), again.admin.throttle.deviceKey(), other.admin.throttle.deviceKey()]);
      assert.equal(a.length, 32);
      assert.ok(a.equals(b), 'a restart keeps the key');
      assert.ok(!a.equals(c), 'another data_dir has its own');
    });
  });
});
