// What /admin's dashboard reads of the newsletter with [state] backend = "postgres": a data_dir copied into a real
// PostgreSQL by migrate's importer reads back as the same subscriber history (the events folded alike) and the same
// live pending counts as the files themselves.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileSources } from '../../../src/adapters/files/dashboard-sources-files.js';
import type { NewsletterForm } from '../../../src/config/config.js';
import { hashToken } from '../../../src/newsletter/token.js';
import { toSubscriberEvent } from '../../../src/newsletter/subscriber-events.js';
import { createPostgresDashboardSources } from '../../../src/adapters/postgres/dashboard-sources.js';
import { importNewsletterFromFiles } from '../../../src/adapters/postgres/newsletter-import.js';
import { createPostgresState } from '../../../src/adapters/postgres/state.js';
import { captureLogs } from '../../support/log-capture.js';
import { loadNewsletterConfig } from '../../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';

const jsonl = (lines: object[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');
const NOW = Date.parse('2024-05-02T00:00:00.000Z');

describe('the dashboard sources over PostgreSQL', () => {
  let postgres: TestPostgres;
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  before(async () => {
    postgres = await startPostgresServer();
    temp = await createTempDir('dashboard-sources');
  });
  after(async () => {
    await postgres.close();
    await temp.remove();
  });

  it('gives the history and pending counts the files give', async () => {
    const dir = temp.dir;
    await writeFile(
      path.join(dir, 'newsletter-subscribers.jsonl'),
      jsonl([
        { event: 'subscribed', email: 'ada@example.org', form: '/newsletter', subscribed_at: '2024-04-01T10:00:00.000Z', signed_up_at: '2024-04-01T09:00:00.000Z' },
        { event: 'subscribed', email: 'bob@example.org', form: '/newsletter', subscribed_at: '2024-04-02T10:00:00.000Z', signed_up_at: '2024-04-02T09:00:00.000Z' },
        { event: 'unsubscribed', email: 'Bob@example.org', form: '/newsletter', at: '2024-04-03T10:00:00.000Z' },
        { event: 'subscribed', email: 'bob@example.org', form: '/newsletter', subscribed_at: '2024-04-05T10:00:00.000Z', signed_up_at: '2024-04-05T09:00:00.000Z' },
      ]),
    );
    await writeFile(path.join(dir, 'letters.jsonl'), jsonl([{ event: 'subscribed', email: 'cy@example.org', form: '/letters', subscribed_at: '2024-04-04T10:00:00.000Z', signed_up_at: '2024-04-04T09:00:00.000Z' }]));
    const pending = (form: string, email: string, hash: string, expires: string) => ({ op: 'pending', hash, email, form, created_at: '2024-05-01T11:00:00.000Z', expires_at: expires });
    await writeFile(
      path.join(dir, 'newsletter-pending.jsonl'),
      jsonl([
        pending('/newsletter', 'dan@example.org', hashToken('h1'), '2099-01-01T00:00:00.000Z'),
        pending('/newsletter', 'eve@example.org', hashToken('h2'), '2099-01-01T00:00:00.000Z'),
        pending('/letters', 'fay@example.org', hashToken('h3'), '2099-01-01T00:00:00.000Z'),
        pending('/letters', 'gus@example.org', hashToken('h4'), '2024-05-01T12:00:00.000Z'),
      ]),
    );
    const config = loadNewsletterConfig(dir, [
      { path: '/newsletter', type: 'newsletter' },
      { path: '/letters', type: 'newsletter', subscribers: 'letters.jsonl' },
    ]);
    const state = createPostgresState(await postgres.createDatabase('dashboard'), captureLogs().logger);
    try {
      await state.migrated();
      await importNewsletterFromFiles(dir, config, state, NOW);
      const files = createFileSources(dir);
      const shared = createPostgresDashboardSources(state);
      for (const form of config.forms as NewsletterForm[]) {
        const fold = (lines: unknown[]) => lines.map((line) => toSubscriberEvent(line, form.path));
        const fromTable = fold(await shared.readSubscriberLines(form));
        assert.deepEqual(fromTable, fold(await files.readSubscriberLines(form)), form.path);
        assert.ok(fromTable.length > 0 && fromTable.every(Boolean), `${form.path}: every row reads as an event`);
      }
      assert.deepEqual(await shared.countPending(NOW), new Map([['/newsletter', 2], ['/letters', 1]]));
      assert.deepEqual(await shared.countPending(NOW), await files.countPending(NOW));
    } finally {
      await state.close();
    }
  });
});
