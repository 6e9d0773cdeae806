// A complaint's "off every list" as one operation of the newsletter's store (docs/bounces.md "Suppression"), held to
// one contract in both backends: the address leaves every list it is on, whatever its case, with the same
// `unsubscribed` line a link writes; the others stay; a second call finds it on no list.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { createPostgresNewsletterStore } from '../../src/adapters/postgres/newsletter-store.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import type { NewsletterForm } from '../../src/config/config.js';
import { createJsonlAppender } from '../../src/kit/files/jsonl.js';
import type { NewsletterStore } from '../../src/newsletter/newsletter-store.js';
import { captureLogs } from '../support/log-capture.js';
import { loadNewsletterConfig, newsletterFormsOf } from '../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';
import { createTempDir } from '../support/temp-dir.js';

const AT = '2026-11-02T09:00:00.000Z';
/** Who is on which list before the complaint. */
const LISTS: Record<string, string[]> = { '/news': ['reader@example.org', 'other@example.org'], '/letters': ['Reader@Example.org'], '/quiet': ['other@example.org'] };
const FORMS = Object.keys(LISTS).map((formPath) => ({ path: formPath, type: 'newsletter', subscribers: `${formPath.slice(1)}.jsonl` }));

const subscribed = (email: string, form: string) => ({ event: 'subscribed', email, form, subscribed_at: '2026-01-01T00:00:00.000Z', signed_up_at: '2026-01-01T00:00:00.000Z' });

/** The contract: `open` gives a store holding LISTS, with the forms it was opened for. */
function removeEverywhereContract(open: () => Promise<{ store: NewsletterStore; forms: NewsletterForm[] }>): void {
  it('takes the address off every list it is on, and only that address', async () => {
    const { store, forms } = await open();
    const form = (formPath: string) => forms.find((candidate) => candidate.path === formPath)!;
    assert.deepEqual((await store.removeEverywhere('READER@example.org', AT)).sort(), ['/letters', '/news']);
    assert.equal(await store.isSubscribed(form('/news'), 'reader@example.org'), false);
    assert.equal(await store.isSubscribed(form('/letters'), 'reader@example.org'), false);
    assert.equal(await store.isSubscribed(form('/news'), 'other@example.org'), true);
    assert.equal(await store.isSubscribed(form('/quiet'), 'other@example.org'), true);
    assert.deepEqual(await store.removeEverywhere('reader@example.org', AT), [], 'on no list any more');
    const left = await store.listSubscribers(form('/news'));
    assert.deepEqual(left.map((subscriber) => subscriber.email), ['other@example.org']);
    await store.close();
  });
}

describe('removeEverywhere in data_dir', () => {
  removeEverywhereContract(async () => {
    const temp = await createTempDir('remove-everywhere');
    after(temp.remove);
    const forms = newsletterFormsOf(loadNewsletterConfig(temp.dir, FORMS));
    for (const form of forms) {
      const lines = LISTS[form.path]!.map((email) => JSON.stringify(subscribed(email, form.path)));
      await writeFile(path.join(temp.dir, form.subscribers), `${lines.join('\n')}\n`);
    }
    const store = createFileNewsletterStore({ dataDir: temp.dir, forms, appendLine: createJsonlAppender(), randomBytes: createCountingRandomBytes(), logger: captureLogs().logger });
    await store.open(Date.parse(AT));
    return { store, forms };
  });
});

describe('removeEverywhere in PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState | undefined;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await state?.close();
    await postgres.close();
  });

  removeEverywhereContract(async () => {
    state = createPostgresState(await postgres.createDatabase('remove_everywhere'), captureLogs().logger);
    await state.migrated();
    const temp = await createTempDir('remove-everywhere-pg');
    after(temp.remove);
    const forms = newsletterFormsOf(loadNewsletterConfig(temp.dir, FORMS));
    for (const form of forms) {
      for (const email of LISTS[form.path]!) {
        await state.query("INSERT INTO subscriber_events (log, form, event, email, at) VALUES ($1, $2, 'subscribed', $3, $4)", [form.subscribers, form.path, email, new Date(AT)]);
      }
    }
    return { store: createPostgresNewsletterStore(state, createCountingRandomBytes()), forms };
  });
});
