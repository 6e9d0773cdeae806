// Newsletter lists (docs/newsletter.md "Lists"): the keys and their checks, the ticked field, and a signup on several
// lists confirmed onto each of them, held to one contract in both stores; logs and pending records written before
// lists existed read as the form's own list.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { createPostgresNewsletterStore } from '../../src/adapters/postgres/newsletter-store.js';
import { importNewsletterFromFiles } from '../../src/adapters/postgres/newsletter-import.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import type { Config } from '../../src/config/config.js';
import { parseConfigText } from '../../src/config/load.js';
import { createJsonlAppender } from '../../src/kit/files/jsonl.js';
import { readFormBody } from '../../src/forms/request-body.js';
import { checkSubmission } from '../../src/forms/rules/submission.js';
import { createNewsletter } from '../../src/newsletter/index.js';
import type { RunningNewsletter } from '../../src/newsletter/flow.js';
import { parseTickedLists } from '../../src/newsletter/lists.js';
import { PENDING_JOURNAL_FILE } from '../../src/newsletter/pending-store.js';
import { hashToken } from '../../src/newsletter/token.js';
import { createTestClock, TEST_EPOCH_MS } from '../support/clock.js';
import { toToml } from '../support/config.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { readJsonLines } from '../support/json-lines.js';
import { captureLogs } from '../support/log-capture.js';
import { createTestNewsletter, loadNewsletterConfig, newsletterFormsOf, NEWSLETTER_PUBLIC_URL, sendMailNow, tokenOf } from '../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';
import { createRecordingMailer, type RecordingMailer } from '../support/recording-mailer.js';
import { createTempDir } from '../support/temp-dir.js';

const FORMS = [
  { path: '/newsletter', type: 'newsletter', lists: ['newsletter', 'weekly', 'product'] },
  { path: '/news/letter', type: 'newsletter' },
];
const EXTRA = {
  newsletter: {
    lists: [
      { id: 'weekly', name: 'The weekly', description: 'Every Monday' },
      { id: 'product', name: 'Product news', public: false },
      { id: 'newsletter', name: 'Everything' },
    ],
  },
};

function problemsOf(forms: unknown[], extra: Record<string, unknown> = {}): string[] {
  const text = toToml({ server: { public_url: NEWSLETTER_PUBLIC_URL }, mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms, ...extra });
  const result = parseConfigText(text, {}, '/tmp');
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

describe('newsletter list keys', () => {
  it('gives each newsletter form its own list, named by [[newsletter.lists]], then the lists without a form', async () => {
    const temp = await createTempDir('lists-config');
    after(temp.remove);
    const config = loadNewsletterConfig(temp.dir, FORMS, EXTRA);
    const [form, second] = newsletterFormsOf(config);
    assert.deepEqual([form?.list, form?.lists, second?.list, second?.lists], ['newsletter', ['newsletter', 'weekly', 'product'], 'news/letter', []]);
    assert.deepEqual(
      config.newsletter.lists.map((list) => [list.id, list.name, list.public, list.form, list.log.path, list.log.subscribers]),
      [
        ['newsletter', 'Everything', true, '/newsletter', '/newsletter', 'newsletter-subscribers.jsonl'],
        ['news/letter', 'news/letter', true, '/news/letter', '/news/letter', 'news-letter-subscribers.jsonl'],
        ['weekly', 'The weekly', true, undefined, 'weekly', 'newsletter-list-weekly-subscribers.jsonl'],
        ['product', 'Product news', false, undefined, 'product', 'newsletter-list-product-subscribers.jsonl'],
      ],
    );
  });

  it('refuses a list that does not exist, one list for two forms, a list declared twice, and the keys on other forms', () => {
    assert.deepEqual(problemsOf([{ path: '/a', type: 'newsletter', lists: ['nope'] }]), ['forms[0].lists[0]: "nope" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list']);
    assert.deepEqual(problemsOf([{ path: '/a', type: 'newsletter' }, { path: '/b', type: 'newsletter', list: 'a' }]), ['forms[1].list: is "a", already the list of forms[0]: give each newsletter form its own list']);
    assert.deepEqual(problemsOf([{ path: '/a', type: 'newsletter' }], { newsletter: { lists: [{ id: 'x' }, { id: 'x' }] } }), ['newsletter.lists[1].id: "x" is declared twice']);
    assert.deepEqual(problemsOf([{ path: '/c', type: 'contact', list: 'c', lists: ['c'] }]), ['forms[0].list: is only for newsletter forms', 'forms[0].lists: is only for newsletter forms']);
    assert.equal(problemsOf([{ path: '/a', type: 'newsletter', list: '/a' }]).length, 1, 'an id never starts with "/"');
  });
});

describe('the ticked lists', () => {
  it('reads repeated and comma-separated ids', () => {
    assert.deepEqual(parseTickedLists('weekly, product,,weekly'), ['weekly', 'product']);
    assert.deepEqual(parseTickedLists(['weekly', 'product,x', 3]), ['weekly', 'product', 'x']);
    assert.deepEqual(parseTickedLists(undefined), []);
    assert.deepEqual(parseTickedLists({ weekly: true }), []);
  });

  it('keeps every value of a repeated `lists` field, on a form that offers lists only', async () => {
    const temp = await createTempDir('lists-field');
    after(temp.remove);
    const [form, second] = newsletterFormsOf(loadNewsletterConfig(temp.dir, FORMS, EXTRA));
    const body = 'email=ada%40example.org&lists=weekly&lists=product&website=';
    const read = await readFormBody({ stream: Readable.from([Buffer.from(body)]), contentType: 'application/x-www-form-urlencoded', contentLength: String(body.length) }, 10_000);
    assert.ok(read.ok);
    const check = checkSubmission(form!, read.fields);
    assert.ok(check.ok);
    assert.deepEqual(check.submission.lists, ['weekly', 'product']);
    const plain = checkSubmission(second!, read.fields);
    assert.ok(plain.ok);
    assert.equal(plain.submission.lists, undefined);
  });
});

/** A newsletter over a store, for the contract. */
interface Opened {
  newsletter: RunningNewsletter;
  mailer: RecordingMailer;
  config: Config;
  /** Who is on the list with this id now. */
  subscribersOf(id: string): Promise<string[]>;
}

/** The contract: `open` builds the newsletter of FORMS and EXTRA over a fresh store. */
function listsContract(open: () => Promise<Opened>): void {
  it('confirms a signup onto every list ticked, and only those', async () => {
    const { newsletter, mailer, config, subscribersOf } = await open();
    const form = newsletterFormsOf(config)[0]!;
    assert.equal(await newsletter.signup(form, 'ada@example.org', ['product', 'weekly', 'unknown']), 'ok');
    await newsletter.settled();
    assert.match(mailer.sent[0]?.text ?? '', /\nThe lists chosen: The weekly, Product news\.\n/, 'the confirmation names the lists, in the order of the form');
    assert.equal(await newsletter.confirm(form, tokenOf(mailer.sent[0])), 'confirmed');
    assert.deepEqual(await subscribersOf('weekly'), ['ada@example.org']);
    assert.deepEqual(await subscribersOf('product'), ['ada@example.org']);
    assert.deepEqual(await subscribersOf('newsletter'), [], 'the form\'s own list was not ticked');

    // None ticked: the form's own list. Already on every list ticked: a duplicate, no mail.
    assert.equal(await newsletter.signup(form, 'bob@example.org'), 'ok');
    assert.equal(await newsletter.signup(form, 'ada@example.org', ['weekly']), 'duplicate');
    await newsletter.settled();
    assert.equal(mailer.sent.length, 3, 'the confirmation, the owner notice, the second confirmation');
    assert.equal(await newsletter.confirm(form, tokenOf(mailer.sent[2])), 'confirmed');
    assert.deepEqual(await subscribersOf('newsletter'), ['bob@example.org']);

    // A list not yet joined is a new signup, whose confirmation adds only that list.
    assert.equal(await newsletter.signup(form, 'ADA@example.org', ['weekly', 'newsletter']), 'ok');
    await newsletter.settled();
    assert.equal(await newsletter.confirm(form, tokenOf(mailer.sent.at(-1))), 'confirmed');
    assert.deepEqual(await subscribersOf('newsletter'), ['bob@example.org', 'ADA@example.org']);
    assert.deepEqual(await subscribersOf('weekly'), ['ada@example.org']);

    // The preference page's changes: a join without a confirmation, a leave, each once.
    const mails = mailer.sent.length;
    const link = await newsletter.preferences.linkFor('ada@example.org');
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    const saved = await newsletter.preferences.save(token, ['weekly']);
    assert.equal(saved.kind, 'saved');
    assert.deepEqual(saved.kind === 'saved' && [saved.joined, saved.left], [[], ['newsletter', 'product']], 'the lists not ticked are left');
    assert.deepEqual(await subscribersOf('product'), []);
    const again = await newsletter.preferences.save(token, ['weekly', 'product', 'newsletter']);
    assert.deepEqual(again.kind === 'saved' && [again.joined, again.left], [['newsletter'], []], 'a list that is not public is never joined here');
    assert.deepEqual(await subscribersOf('newsletter'), ['bob@example.org', 'ada@example.org']);
    const gone = await newsletter.preferences.leaveAll(token);
    assert.deepEqual(gone.kind === 'saved' && gone.left, ['newsletter', 'weekly']);
    assert.equal((await newsletter.preferences.save(`${token.slice(0, -2)}AA`, ['weekly'])).kind, 'bad_token');
    assert.equal(mailer.sent.length, mails, 'no mail for any of it');
    await newsletter.close();
  });
}

/** The newsletter over `store` with the fakes. */
async function newsletterOver(config: Config, store: Parameters<typeof createNewsletter>[0]['store']) {
  const mailer = createRecordingMailer();
  const logs = captureLogs();
  const newsletter = await createNewsletter({
    forms: newsletterFormsOf(config),
    lists: config.newsletter.lists,
    from: 'forms@example.com',
    siteNameFor: () => 'Example',
    sendMail: sendMailNow(mailer),
    metrics: { count() {} },
    logger: logs.logger,
    clock: createTestClock(),
    randomBytes: createCountingRandomBytes(),
    store,
    timers: createFakeTimer(),
  });
  return { newsletter, mailer };
}

describe('lists in data_dir', () => {
  listsContract(async () => {
    const harness = await createTestNewsletter(FORMS, undefined, EXTRA);
    after(() => harness.close());
    const subscribersOf = async (id: string) => {
      const list = harness.config.newsletter.lists.find((candidate) => candidate.id === id)!;
      return (await harness.newsletter.listSubscribers(list.log)).map((subscriber) => subscriber.email);
    };
    return { newsletter: harness.newsletter, mailer: harness.mailer, config: harness.config, subscribersOf };
  });

  it('reads a subscriber log and a pending signup written before lists as the form\'s own list', async () => {
    const temp = await createTempDir('lists-old-files');
    after(temp.remove);
    const hash = hashToken('old-token');
    await writeFile(path.join(temp.dir, 'newsletter-subscribers.jsonl'), `${JSON.stringify({ email: 'old@example.org', subscribed_at: '2020-01-01T00:00:00Z', signed_up_at: '2020-01-01T00:00:00Z' })}\n`);
    const pending = { op: 'pending', hash, email: 'new@example.org', form: '/newsletter', created_at: new Date(TEST_EPOCH_MS).toISOString(), expires_at: new Date(TEST_EPOCH_MS + 3_600_000).toISOString() };
    await writeFile(path.join(temp.dir, PENDING_JOURNAL_FILE), `${JSON.stringify(pending)}\n`);
    const harness = await createTestNewsletterIn(temp.dir);
    const form = newsletterFormsOf(harness.config)[0]!;
    assert.equal(await harness.newsletter.isSubscribed(form, 'old@example.org'), true);
    assert.equal(await harness.newsletter.confirm(form, 'old-token'), 'confirmed');
    assert.deepEqual((await harness.newsletter.listSubscribers(form)).map((subscriber) => subscriber.email), ['old@example.org', 'new@example.org']);
    const lines = (await readFile(path.join(temp.dir, 'newsletter-subscribers.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 2, 'the old line stays as it was');
    assert.deepEqual(await readJsonLines(path.join(temp.dir, 'newsletter-list-weekly-subscribers.jsonl')).catch(() => []), []);
    await harness.newsletter.close();
  });
});

/** The newsletter of FORMS and EXTRA over the files of `dataDir`. */
async function createTestNewsletterIn(dataDir: string) {
  const config = loadNewsletterConfig(dataDir, FORMS, EXTRA);
  const store = createFileNewsletterStore({
    dataDir,
    forms: newsletterFormsOf(config),
    lists: config.newsletter.lists.map((list) => list.log),
    appendLine: createJsonlAppender(),
    randomBytes: createCountingRandomBytes(),
    logger: captureLogs().logger,
  });
  return { config, ...(await newsletterOver(config, store)) };
}

describe('lists in PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState | undefined;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await state?.close();
    await postgres.close();
  });

  listsContract(async () => {
    state = createPostgresState(await postgres.createDatabase('newsletter_lists'), captureLogs().logger);
    await state.migrated();
    const temp = await createTempDir('lists-pg');
    after(temp.remove);
    const config = loadNewsletterConfig(temp.dir, FORMS, EXTRA);
    const store = createPostgresNewsletterStore(state, createCountingRandomBytes(), config.newsletter.lists.map((list) => list.log));
    const { newsletter, mailer } = await newsletterOver(config, store);
    const subscribersOf = async (id: string) => {
      const list = config.newsletter.lists.find((candidate) => candidate.id === id)!;
      return (await store.listSubscribers(list.log)).map((subscriber) => subscriber.email);
    };
    return { newsletter, mailer, config, subscribersOf };
  });

  it('takes the logs of lists without a form and the lists of pending signups from a data_dir (migrate --from-files)', async () => {
    const imported = createPostgresState(await postgres.createDatabase('newsletter_lists_import'), captureLogs().logger);
    after(() => imported.close());
    await imported.migrated();
    const temp = await createTempDir('lists-import');
    after(temp.remove);
    const config = loadNewsletterConfig(temp.dir, FORMS, EXTRA);
    const line = { event: 'subscribed', email: 'old@example.org', form: 'weekly', subscribed_at: '2024-04-01T10:00:00.000Z', signed_up_at: '2024-04-01T09:00:00.000Z' };
    await writeFile(path.join(temp.dir, 'newsletter-list-weekly-subscribers.jsonl'), `${JSON.stringify(line)}\n`);
    const pending = { op: 'pending', hash: hashToken('from-the-mail'), email: 'new@example.org', form: '/newsletter', created_at: new Date(TEST_EPOCH_MS).toISOString(), expires_at: new Date(TEST_EPOCH_MS + 3_600_000).toISOString(), lists: ['product'] };
    await writeFile(path.join(temp.dir, PENDING_JOURNAL_FILE), `${JSON.stringify(pending)}\n`);
    assert.deepEqual(await importNewsletterFromFiles(temp.dir, config, imported, TEST_EPOCH_MS), { copied: 2, skipped: 0 });
    const store = createPostgresNewsletterStore(imported, createCountingRandomBytes(), config.newsletter.lists.map((list) => list.log));
    const weekly = config.newsletter.lists.find((list) => list.id === 'weekly')!;
    const product = config.newsletter.lists.find((list) => list.id === 'product')!;
    assert.deepEqual((await store.listSubscribers(weekly.log)).map((subscriber) => subscriber.email), ['old@example.org']);
    const redeemed = await store.redeem(newsletterFormsOf(config)[0]!, hashToken('from-the-mail'), TEST_EPOCH_MS + 1);
    assert.equal(redeemed.kind, 'confirmed');
    assert.deepEqual((await store.listSubscribers(product.log)).map((subscriber) => subscriber.email), ['new@example.org']);
  });
});
