// Durability of the newsletter state: restarts, torn lines, a crash between the two writes, and purging.
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createJsonlAppender } from '../../src/kit/files/jsonl.js';
import { createNewsletter } from '../../src/newsletter/index.js';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { PENDING_JOURNAL_FILE } from '../../src/newsletter/pending-store.js';
import { hashToken } from '../../src/newsletter/token.js';
import { HOUR_MS, TEST_EPOCH_MS } from '../support/clock.js';
import { readJsonLines } from '../support/json-lines.js';
import { counters, createTestNewsletter, sendMailNow, tokenOf, type TestNewsletter } from '../support/newsletter.js';

describe('newsletter durability', () => {
  let harness: TestNewsletter;
  let journal: string;
  let subscribersFile: string;
  beforeEach(async () => {
    harness = await createTestNewsletter();
    journal = path.join(harness.dataDir, PENDING_JOURNAL_FILE);
    subscribersFile = path.join(harness.dataDir, 'newsletter-subscribers.jsonl');
  });
  afterEach(() => harness.close());

  async function signUp(email: string): Promise<string> {
    assert.equal(await harness.newsletter.signup(harness.form, email), 'ok');
    return tokenOf(harness.mailer.sent.at(-1));
  }

  it('keeps pending and redeemed state across a restart', async () => {
    const ada = await signUp('ada@example.org');
    const bob = await signUp('bob@example.org');
    assert.equal(await harness.newsletter.confirm(harness.form, bob), 'confirmed');
    await harness.restart();
    assert.equal(await harness.newsletter.signup(harness.form, 'ADA@example.org'), 'duplicate', 'ada is still pending');
    assert.equal(await harness.newsletter.signup(harness.form, 'Bob@example.org'), 'duplicate', 'bob is subscribed');
    assert.equal(await harness.newsletter.confirm(harness.form, bob), 'gone', 'a redeemed link stays used');
    assert.equal(await harness.newsletter.confirm(harness.form, ada), 'confirmed', 'a pending link still works');
    assert.deepEqual((await readJsonLines(subscribersFile)).map((line) => line.email), ['bob@example.org', 'ada@example.org']);
  });

  it('compacts the journal at start: finished and expired records are dropped', async () => {
    const ada = await signUp('ada@example.org');
    await signUp('bob@example.org');
    harness.clock.set(TEST_EPOCH_MS + HOUR_MS);
    const cy = await signUp('cy@example.org');
    await harness.newsletter.confirm(harness.form, ada);
    assert.equal((await readJsonLines(journal)).length, 4);
    harness.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS); // bob's link has just expired, cy's has an hour left
    await harness.restart();
    assert.deepEqual(await readJsonLines(journal), [
      { op: 'pending', hash: hashToken(cy), email: 'cy@example.org', form: '/newsletter', created_at: '2024-05-01T13:00:00.000Z', expires_at: '2024-05-03T13:00:00.000Z' },
    ]);
    assert.equal(await harness.newsletter.confirm(harness.form, cy), 'confirmed');
  });

  it('tolerates a torn last journal line and keeps later appends readable', async () => {
    const ada = await signUp('ada@example.org');
    await appendFile(journal, '{"op":"pending","hash":"ab'); // what a power cut mid-write can leave
    await harness.restart();
    const warning = harness.logs.lines().findLast((line) => line.event === 'pending_loaded');
    assert.equal(warning?.level, 40);
    assert.equal(warning?.badLines, 1);
    assert.equal(warning?.live, 1);
    const bob = await signUp('bob@example.org');
    const text = await readFile(journal, 'utf8');
    assert.ok(text.endsWith('\n') && !text.includes('"hash":"ab\n'), 'the torn line is gone');
    await harness.restart();
    assert.equal(await harness.newsletter.confirm(harness.form, ada), 'confirmed');
    assert.equal(await harness.newsletter.confirm(harness.form, bob), 'confirmed');
  });

  it('tolerates a torn last subscriber line without gluing the next line to it', async () => {
    const ada = await signUp('ada@example.org');
    await writeFile(subscribersFile, '{"email":"old@example.org","form":"/newsletter"}\n{"email":"to');
    await harness.restart();
    assert.equal(await harness.newsletter.confirm(harness.form, ada), 'confirmed');
    assert.deepEqual((await readJsonLines(subscribersFile)).map((line) => line.email), ['old@example.org', 'ada@example.org']);
    assert.equal(await harness.newsletter.signup(harness.form, 'OLD@example.org'), 'duplicate');
  });

  it('a crash between the subscriber line and the journal line neither loses nor doubles the subscription', async () => {
    const ada = await signUp('ada@example.org');
    // The state such a crash leaves: the line is on disk, the journal still says pending.
    await writeFile(subscribersFile, `${JSON.stringify({ email: 'ada@example.org', form: '/newsletter', subscribed_at: '2024-05-01T12:30:00.000Z', signed_up_at: '2024-05-01T12:00:00.000Z' })}\n`);
    await harness.restart();
    assert.equal(await harness.newsletter.confirm(harness.form, ada), 'confirmed');
    assert.equal((await readJsonLines(subscribersFile)).length, 1);
    assert.equal(await harness.newsletter.confirm(harness.form, ada), 'gone');
  });

  it('starts with a data folder that does not exist yet', async () => {
    const fresh = await createTestNewsletter();
    try {
      const nested = path.join(fresh.dataDir, 'not', 'yet');
      const newsletter = await createNewsletter({
        forms: fresh.forms, from: 'forms@example.com', siteNameFor: () => 'Example Site',
        sendMail: sendMailNow(fresh.mailer), metrics: fresh.metrics, logger: fresh.logs.logger,
        clock: () => TEST_EPOCH_MS, timers: fresh.timers, randomBytes: (count) => Buffer.alloc(count, 7),
        store: createFileNewsletterStore({
          dataDir: nested, forms: fresh.forms, appendLine: createJsonlAppender(), randomBytes: (count) => Buffer.alloc(count, 7), logger: fresh.logs.logger,
        }),
      });
      assert.equal(await newsletter.signup(fresh.form, 'ada@example.org'), 'ok');
      assert.equal((await readJsonLines(path.join(nested, PENDING_JOURNAL_FILE))).length, 1);
      await newsletter.close();
    } finally {
      await fresh.close();
    }
  });

  it('refuses to start, naming the file, when the journal exists but cannot be read', async () => {
    await harness.newsletter.close();
    await rm(journal, { force: true });
    await mkdir(journal);
    await assert.rejects(harness.restart(), (error: Error) => error.message.includes(journal) && /pending signups journal/.test(error.message));
    await rm(journal, { recursive: true });
    await harness.restart();
  });

  it('purges expired records from the journal on its timer', async () => {
    const timed = await createTestNewsletter(undefined, 60_000);
    try {
      await timed.newsletter.signup(timed.form, 'ada@example.org');
      timed.clock.set(TEST_EPOCH_MS + HOUR_MS);
      await timed.newsletter.signup(timed.form, 'bob@example.org');
      const bob = tokenOf(timed.mailer.sent[1]);
      const timedJournal = path.join(timed.dataDir, PENDING_JOURNAL_FILE);
      timed.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS);
      await timed.timers.advance(59_999);
      assert.equal((await readJsonLines(timedJournal)).length, 2, 'not purged before its time');
      await timed.timers.advance(1);
      await timed.newsletter.close(); // waits for the purge's rewrite
      assert.deepEqual((await readJsonLines(timedJournal)).map((line) => line.email), ['bob@example.org']);
      assert.ok(timed.logs.lines().some((line) => line.event === 'pending_purged'));
      await timed.restart();
      assert.equal(await timed.newsletter.confirm(timed.form, bob), 'confirmed');
      assert.equal(counters(timed)?.confirmed, 1);
    } finally {
      await timed.close();
    }
  });
});
