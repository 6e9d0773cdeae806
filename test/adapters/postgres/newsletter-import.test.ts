// `postbox migrate --from-files` for the newsletter (docs/newsletter.md "With PostgreSQL"): the live pending signups,
// the subscriber logs and the secret of a data_dir land in PostgreSQL once; the file's secret replaces one a replica
// made, so links mailed before the move keep working; a second run copies nothing, not even a link redeemed in
// between.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Newsletter } from '../../../src/newsletter/index.js';
import { hashToken } from '../../../src/newsletter/token.js';
import { createUnsubscribeToken } from '../../../src/newsletter/unsubscribe-token.js';
import { importNewsletterFromFiles } from '../../../src/adapters/postgres/newsletter-import.js';
import { createPostgresState } from '../../../src/adapters/postgres/state.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { captureLogs } from '../../support/log-capture.js';
import { loadNewsletterConfig } from '../../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const start = useTestFormsService();
const SECRET = Buffer.alloc(32, 7);
const TOKEN = 'dan-token-from-the-mail';
const jsonl = (lines: object[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

/** A data_dir as the files backend leaves it. */
async function writeDataDir(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'newsletter-secret'), SECRET, { mode: 0o600 });
  await writeFile(
    path.join(dir, 'newsletter-subscribers.jsonl'),
    jsonl([
      { event: 'subscribed', email: 'ada@example.org', form: '/newsletter', subscribed_at: '2024-04-01T10:00:00.000Z', signed_up_at: '2024-04-01T09:00:00.000Z' },
      { event: 'subscribed', email: 'bob@example.org', form: '/newsletter', subscribed_at: '2024-04-02T10:00:00.000Z', signed_up_at: '2024-04-02T09:00:00.000Z' },
      { event: 'unsubscribed', email: 'Bob@example.org', form: '/newsletter', at: '2024-04-03T10:00:00.000Z' },
      // An old line, from before lines named their event and form.
      { email: 'carol@example.org', subscribed_at: '2023-01-01T00:00:00Z' },
      { event: 'subscribed', email: 'zed@example.org', form: '/elsewhere', subscribed_at: '2024-04-02T10:00:00.000Z', signed_up_at: '' },
    ]) + '{"torn',
  );
  const pending = (email: string, hash: string, expires: string) => ({ op: 'pending', hash, email, form: '/newsletter', created_at: '2024-05-01T11:00:00.000Z', expires_at: expires });
  await writeFile(
    path.join(dir, 'newsletter-pending.jsonl'),
    jsonl([
      pending('dan@example.org', hashToken(TOKEN), '2099-01-01T00:00:00.000Z'),
      pending('eve@example.org', hashToken('eve'), '2099-01-01T00:00:00.000Z'),
      { op: 'redeemed', hash: hashToken('eve') },
      pending('fay@example.org', hashToken('fay'), '2020-01-01T00:00:00.000Z'),
    ]),
  );
}

describe('importNewsletterFromFiles', () => {
  let postgres: TestPostgres;
  const cleanups: Array<() => Promise<void>> = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function replica(url: string): Promise<TestFormsService & { newsletter: Newsletter }> {
    let newsletter: Newsletter | undefined;
    const service = await start({
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0 }],
      extra: { server: { public_url: 'https://forms.example.com' }, state: { backend: 'postgres', url } },
    });
    newsletter = service.core.newsletter;
    await waitFor('the replica to migrate', async () => ((await service.app.inject({ method: 'GET', url: '/health' })).statusCode === 200 ? true : undefined), 20_000);
    return Object.assign(service, { newsletter: newsletter! });
  }

  it('copies once, keeps old links working and never brings back a used one', async () => {
    const { dir, remove } = await createTempDir('import');
    cleanups.push(remove);
    await writeDataDir(dir);
    const url = await postgres.createDatabase('newsletter_import');
    const config = loadNewsletterConfig(dir);
    const form = config.forms[0]!;
    assert.ok(form.type === 'newsletter');

    // A replica started before the import made a secret of its own.
    const early = await replica(url);
    const freshLink = await early.newsletter.unsubscribeLinkFor(form, 'ada@example.org');
    await early.close();

    const state = createPostgresState(url, captureLogs().logger);
    cleanups.push(() => state.close());
    await state.migrated();
    // secret + ada, bob, bob unsubscribed, carol + dan (eve was redeemed, fay expired, zed is another form's).
    assert.deepEqual(await importNewsletterFromFiles(dir, config, state), { copied: 6, skipped: 0 });
    assert.deepEqual(await importNewsletterFromFiles(dir, config, state), { copied: 0, skipped: 6 });

    const served = await replica(url);
    const oldLink = `/newsletter/unsubscribe?token=${createUnsubscribeToken(SECRET, '/newsletter', 'ada@example.org')}`;
    assert.notEqual(freshLink, `https://forms.example.com${oldLink}`);
    assert.equal(await served.newsletter.unsubscribeLinkFor(form, 'ada@example.org'), `https://forms.example.com${oldLink}`);
    assert.equal(await served.newsletter.isSubscribed(form, 'ada@example.org'), true);
    assert.equal(await served.newsletter.isSubscribed(form, 'bob@example.org'), false);
    assert.equal(await served.newsletter.isSubscribed(form, 'Carol@example.org'), true);
    assert.equal((await served.app.inject({ method: 'POST', url: oldLink })).statusCode, 200);
    assert.equal(await served.newsletter.isSubscribed(form, 'ada@example.org'), false);
    assert.equal((await served.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${TOKEN}` })).statusCode, 200);
    assert.equal((await served.app.inject({ method: 'GET', url: `/newsletter/confirm?token=eve` })).statusCode, 410);

    // Run again after the move: dan's used link stays used.
    assert.deepEqual(await importNewsletterFromFiles(dir, config, state), { copied: 0, skipped: 6 });
    assert.equal((await served.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${TOKEN}` })).statusCode, 410);
    assert.equal(await served.newsletter.isSubscribed(form, 'dan@example.org'), true);
  });

  it('copies nothing from an empty data_dir', async () => {
    const { dir, remove } = await createTempDir('import');
    cleanups.push(remove);
    const state = createPostgresState(await postgres.createDatabase('newsletter_empty'), captureLogs().logger);
    cleanups.push(() => state.close());
    await state.migrated();
    assert.deepEqual(await importNewsletterFromFiles(dir, loadNewsletterConfig(dir), state), { copied: 0, skipped: 0 });
  });
});
