// Subscriber attributes and segments on both stores (docs/newsletter.md "Subscriber attributes", "Segments"): a
// confirmation keeps the form as source and the language of the sign-up, older records without them still list,
// tags belong to the current subscription, and a segment takes exactly the subscribers its criteria name.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { createPostgresNewsletterStore } from '../../src/adapters/postgres/newsletter-store.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import type { NewsletterForm, NewsletterSegment } from '../../src/config/config.js';
import { parseConfigText } from '../../src/config/load.js';
import { checkSubmission } from '../../src/forms/rules/submission.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { createSilentLogger } from '../../src/kit/log.js';
import type { NewsletterStore } from '../../src/newsletter/newsletter-store.js';
import { segmentMembers } from '../../src/newsletter/segments.js';
import { hashToken } from '../../src/newsletter/token.js';
import { createTestNewsletter, tokenOf } from '../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';

const FORM = { path: '/newsletter', type: 'newsletter', subscribers: 'newsletter-subscribers.jsonl', list: 'newsletter', lists: [] } as unknown as NewsletterForm;
const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const randomBytes = (size: number) => Buffer.alloc(size, 3);

/** Signs `email` up at `at` with `lang` and confirms it a minute later. */
async function confirmed(store: NewsletterStore, email: string, at: number, lang?: string): Promise<void> {
  const hash = hashToken(`token-${email}-${at}`);
  await store.addPending({ hash, email, form: FORM.path, createdAt: at, expiresAt: at + DAY, ...(lang ? { lang } : {}) });
  const redemption = await store.redeem(FORM, hash, at + 60_000);
  assert.equal(redemption.kind, 'confirmed');
}

const segment = (criteria: Partial<NewsletterSegment>): NewsletterSegment => ({ id: 's', list: 'newsletter', tags_include: [], tags_exclude: [], ...criteria });

/** The same story on each store; `oldSubscriber` writes a subscription as an older Postbox did, without attributes. */
async function story(store: NewsletterStore, oldSubscriber: (email: string) => Promise<void>): Promise<void> {
  await store.open(T0);
  await oldSubscriber('old@example.org');
  await confirmed(store, 'ada@example.org', T0, 'en-gb');
  await confirmed(store, 'bea@example.org', T0 + 10 * DAY, 'fr');
  await confirmed(store, 'cy@example.org', T0 + 20 * DAY);

  const listed = await store.listSubscribers(FORM);
  assert.deepEqual(
    listed.map(({ email, source, lang, signed_up_at }) => ({ email, source, lang, signed_up_at })),
    [
      { email: 'old@example.org', source: undefined, lang: undefined, signed_up_at: '2025-01-01T00:00:00.000Z' },
      { email: 'ada@example.org', source: '/newsletter', lang: 'en-gb', signed_up_at: new Date(T0).toISOString() },
      { email: 'bea@example.org', source: '/newsletter', lang: 'fr', signed_up_at: new Date(T0 + 10 * DAY).toISOString() },
      { email: 'cy@example.org', source: '/newsletter', lang: undefined, signed_up_at: new Date(T0 + 20 * DAY).toISOString() },
    ],
  );

  const at = new Date(T0 + 30 * DAY).toISOString();
  assert.equal(await store.setTags(FORM, 'ADA@example.org', ['vip', 'beta'], at), true);
  assert.equal(await store.setTags(FORM, 'bea@example.org', ['beta'], at), true);
  assert.equal(await store.setTags(FORM, 'nobody@example.org', ['vip'], at), false, 'an address not on the list is not tagged');
  // Bea leaves and comes back: the new subscription starts without tags.
  await store.unsubscribe(FORM, 'bea@example.org', at);
  assert.equal(await store.setTags(FORM, 'bea@example.org', ['vip'], at), false);
  await confirmed(store, 'bea@example.org', T0 + 31 * DAY, 'fr');

  const now = await store.listSubscribers(FORM);
  const members = (criteria: Partial<NewsletterSegment>) => segmentMembers(segment(criteria), now).map((subscriber) => subscriber.email);
  assert.deepEqual(now.find((subscriber) => subscriber.email === 'ada@example.org')?.tags, ['vip', 'beta']);
  assert.deepEqual(members({ tags_include: ['beta'] }), ['ada@example.org']);
  assert.deepEqual(members({ tags_exclude: ['vip'] }), ['old@example.org', 'cy@example.org', 'bea@example.org']);
  assert.deepEqual(members({ lang: 'en' }), ['ada@example.org'], 'en takes en-gb; a record without a language is not taken');
  assert.deepEqual(members({ source: '/newsletter', signed_up_before: new Date(T0 + 20 * DAY).toISOString() }), ['ada@example.org']);
  assert.deepEqual(members({ signed_up_after: new Date(T0 + DAY).toISOString() }), ['cy@example.org', 'bea@example.org']);
  assert.deepEqual(members({}), ['old@example.org', 'ada@example.org', 'cy@example.org', 'bea@example.org']);
  await store.close();
}

describe('subscriber attributes and segments', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  it('in data_dir files', async () => {
    const { dir, remove } = await createTempDir('attributes');
    try {
      const store = createFileNewsletterStore({ dataDir: dir, forms: [FORM], appendLine: createJsonlFiles().append, randomBytes, logger: createSilentLogger() });
      await story(store, async (email) => {
        const line = { email, subscribed_at: '2025-01-01T00:00:00.000Z', signed_up_at: '2025-01-01T00:00:00.000Z' };
        await writeFile(path.join(dir, FORM.subscribers), `${JSON.stringify(line)}\n`, { flag: 'a' });
      });
    } finally {
      await remove();
    }
  });

  it('in PostgreSQL', async () => {
    const state: PostgresState = createPostgresState(await postgres.createDatabase('attributes'), createSilentLogger());
    try {
      await state.migrated();
      await story(createPostgresNewsletterStore(state, randomBytes), async (email) => {
        await state.query("INSERT INTO subscriber_events (log, form, event, email, at, signed_up_at) VALUES ($1, $2, 'subscribed', $3, $4, $4)", [FORM.subscribers, FORM.path, email, new Date('2025-01-01T00:00:00Z')]);
      });
    } finally {
      await state.close();
    }
  });
});

const CONFIG = `
[server]
public_url = "https://forms.example.com"
[mail]
from = "forms@example.com"
to = "owner@example.com"
[[forms]]
path = "/newsletter"
type = "newsletter"
`;

describe('segment and automation keys, and the field lang', () => {
  it('reads [[newsletter.segments]] with TOML dates, and refuses an unknown list or an id twice', () => {
    const result = parseConfigText(
      `${CONFIG}[[newsletter.segments]]\nid = "fr"\nlist = "newsletter"\ntags_include = ["Beta "]\nsigned_up_after = 2026-01-01\nsigned_up_before = 2026-02-01T10:00:00+01:00\nlang = "FR"\n`,
      {},
      '/tmp',
    );
    assert.ok(result.ok);
    assert.deepEqual(result.config.newsletter.segments, [
      { id: 'fr', list: 'newsletter', tags_include: ['beta'], tags_exclude: [], signed_up_after: '2026-01-01T00:00:00.000Z', signed_up_before: '2026-02-01T09:00:00.000Z', lang: 'fr' },
    ]);
    const wrong = parseConfigText(`${CONFIG}[[newsletter.segments]]\nid = "a"\nlist = "nope"\n[[newsletter.segments]]\nid = "a"\nlist = "newsletter"\n`, {}, '/tmp');
    assert.ok(!wrong.ok);
    assert.deepEqual(
      wrong.problems.map((problem) => `${problem.path}: ${problem.message}`),
      ['newsletter.segments[0].list: "nope" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list', 'newsletter.segments[1].id: "a" is declared twice'],
    );
  });

  it('refuses an automation of another type or over a list that does not exist', () => {
    const result = parseConfigText(`${CONFIG}[[newsletter.automations]]\nid = "a"\ntype = "weekly"\nlist = "nope"\nsubject = "Hi"\nbody = "Hello"\n`, {}, '/tmp');
    assert.ok(!result.ok);
    assert.deepEqual(
      result.problems.map((problem) => `${problem.path}: ${problem.message}`),
      ['newsletter.automations[0].type: must have type "welcome", "on_publish" or "digest"', 'newsletter.automations[0].list: "nope" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list'],
    );
  });

  it('takes a language tag from the field lang of a newsletter form, and nothing else', () => {
    const result = parseConfigText(CONFIG, {}, '/tmp');
    assert.ok(result.ok);
    const form = result.config.forms[0]!;
    const langOf = (lang: unknown) => {
      const check = checkSubmission(form, { email: 'ada@example.org', lang });
      assert.ok(check.ok);
      return check.submission.lang;
    };
    assert.deepEqual([langOf('pt-BR'), langOf(' en '), langOf('english, please'), langOf(undefined), langOf(['fr'])], ['pt-br', 'en', undefined, undefined, undefined]);
  });
});

describe('a sign-up with a language', () => {
  it('keeps the language and the form through a restart to the subscription', async () => {
    const harness = await createTestNewsletter();
    after(() => harness.close());
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org', undefined, 'de'), 'ok');
    await harness.newsletter.settled();
    const restarted = await harness.restart();
    assert.equal(await restarted.confirm(harness.form, tokenOf(harness.mailer.sent.at(-1))), 'confirmed');
    const [subscriber] = await restarted.listSubscribers(harness.form);
    assert.deepEqual([subscriber?.email, subscriber?.lang, subscriber?.source], ['ada@example.org', 'de', harness.form.path]);
  });
});
