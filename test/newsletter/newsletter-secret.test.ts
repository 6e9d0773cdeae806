// The newsletter's secret (src/newsletter/newsletter-secret.ts): made once, whole, 0600, the same for every
// reader; a short file (a crash of an older version mid-write) stops the start with a message, never replaced.
import assert from 'node:assert/strict';
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadNewsletterSecret, NEWSLETTER_SECRET_FILE } from '../../src/newsletter/newsletter-secret.js';
import { withTempDir } from '../support/temp-dir.js';

describe('the newsletter secret', () => {
  it('is made once: starts at the same moment all get the one that was written, and no temp file stays', async () =>
    withTempDir('newsletter-secret', async (dir) => {
      let fill = 0;
      const secrets = await Promise.all(Array.from({ length: 5 }, () => loadNewsletterSecret(dir, (count) => Buffer.alloc(count, ++fill))));
      assert.equal(new Set(secrets.map((secret) => secret.toString('hex'))).size, 1);
      assert.deepEqual(await loadNewsletterSecret(dir, (count) => Buffer.alloc(count, 99)), secrets[0]);
      assert.deepEqual(await readdir(dir), [NEWSLETTER_SECRET_FILE]);
      assert.equal((await stat(path.join(dir, NEWSLETTER_SECRET_FILE))).mode & 0o777, 0o600);
    }));

  it('refuses a secret of another length instead of replacing it', async () =>
    withTempDir('newsletter-secret', async (dir) => {
      await writeFile(path.join(dir, NEWSLETTER_SECRET_FILE), Buffer.alloc(7));
      await assert.rejects(loadNewsletterSecret(dir, (count) => Buffer.alloc(count, 1)), /is not 32 bytes; move it away/);
    }));
});
