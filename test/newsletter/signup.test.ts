// Signups through createNewsletter with fakes: durable before the answer, the mail after it, duplicates, storage
// and mail failures.
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { hashToken } from '../../src/newsletter/token.js';
import { PENDING_JOURNAL_FILE } from '../../src/newsletter/pending-store.js';
import { HOUR_MS, TEST_EPOCH_MS } from '../support/clock.js';
import { readJsonLines } from '../support/json-lines.js';
import { counters, createTestNewsletter, NEWSLETTER_PUBLIC_URL, tokenOf, type TestNewsletter } from '../support/newsletter.js';

describe('newsletter signup', () => {
  let harness: TestNewsletter;
  let journal: string;
  beforeEach(async () => {
    harness = await createTestNewsletter();
    journal = path.join(harness.dataDir, PENDING_JOURNAL_FILE);
  });
  afterEach(() => harness.close());

  it('stores the pending record on disk before the confirmation mail goes out', async () => {
    let onDiskAtSend: Record<string, unknown>[] = [];
    harness.mailer.beforeSend = async () => {
      onDiskAtSend = await readJsonLines(journal);
    };
    assert.equal(await harness.newsletter.signup(harness.form, 'Ada@Example.org'), 'ok');
    await harness.newsletter.settled();
    const [message] = harness.mailer.sent;
    const token = tokenOf(message);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(onDiskAtSend, [
      {
        op: 'pending', hash: hashToken(token), email: 'Ada@Example.org', form: '/newsletter',
        created_at: '2024-05-01T12:00:00.000Z', expires_at: '2024-05-03T12:00:00.000Z',
      },
    ]);
    assert.equal(message?.to, 'Ada@Example.org');
    assert.ok(message?.text.includes(`${NEWSLETTER_PUBLIC_URL}/newsletter/confirm?token=${token}`));
    assert.ok(message?.text.includes('2024-05-03 12:00 UTC'));
    assert.ok(message?.text.includes('the newsletter of forms.example.com.'), 'names the site: [site] title, else the host');
    assert.ok(!JSON.stringify(await readJsonLines(journal)).includes(token), 'the token itself is never stored');
    assert.equal(counters(harness)?.confirmation_sent, 1);
  });

  it('uses the form confirm_ttl_hours for the expiry, and the subscriber log the schema names after the path', async () => {
    const custom = await createTestNewsletter([{ path: '/news', type: 'newsletter', confirm_ttl_hours: 2 }]);
    try {
      await custom.newsletter.signup(custom.form, 'ada@example.org');
      const [line] = await readJsonLines(path.join(custom.dataDir, PENDING_JOURNAL_FILE));
      assert.equal(line?.expires_at, new Date(TEST_EPOCH_MS + 2 * HOUR_MS).toISOString());
      assert.ok(custom.mailer.sent[0]?.text.includes('https://forms.example.com/news/confirm?token='));
      assert.equal(await custom.newsletter.confirm(custom.form, tokenOf(custom.mailer.sent[0])), 'confirmed');
      assert.deepEqual((await readJsonLines(path.join(custom.dataDir, 'news-subscribers.jsonl'))).map((entry) => entry.email), ['ada@example.org']);
      assert.ok(custom.mailer.sent[1]?.text.includes('subscriber log news-subscribers.jsonl in'), 'the owner notice names the file');
    } finally {
      await custom.close();
    }
  });

  it('answers a pending address as a duplicate, case-insensitively, and sends nothing', async () => {
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'ok');
    assert.equal(await harness.newsletter.signup(harness.form, 'ADA@EXAMPLE.ORG'), 'duplicate');
    await harness.newsletter.settled();
    assert.equal(harness.mailer.sent.length, 1);
    // The duplicate wrote as a new signup does, a line without an address that expired when written.
    const [first, second] = await readJsonLines(journal);
    assert.equal(first?.email, 'ada@example.org');
    assert.deepEqual([second?.op, second?.email, second?.expires_at], ['pending', '', second?.created_at]);
    assert.equal(counters(harness)?.duplicate_signup, 1);
    assert.equal(counters(harness)?.confirmation_sent, 1);
    // That line changes nothing: the first link still works, and the address is still pending.
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'duplicate');
    assert.equal(await harness.newsletter.confirm(harness.form, tokenOf(harness.mailer.sent[0])), 'confirmed');
  });

  it('answers a subscribed address as a duplicate', async () => {
    await harness.newsletter.signup(harness.form, 'ada@example.org');
    const page = await harness.newsletter.confirm(harness.form, tokenOf(harness.mailer.sent[0]));
    assert.equal(page, 'confirmed');
    const mailsBefore = harness.mailer.sent.length;
    harness.clock.set(TEST_EPOCH_MS + 100 * HOUR_MS);
    assert.equal(await harness.newsletter.signup(harness.form, 'Ada@example.ORG'), 'duplicate');
    assert.equal(harness.mailer.sent.length, mailsBefore);
    assert.equal(counters(harness)?.duplicate_signup, 1);
  });

  it('lets an address whose pending link expired sign up again', async () => {
    await harness.newsletter.signup(harness.form, 'ada@example.org');
    harness.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS - 1);
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'duplicate');
    harness.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS);
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'ok');
    assert.equal(harness.mailer.sent.length, 2);
    assert.notEqual(tokenOf(harness.mailer.sent[0]), tokenOf(harness.mailer.sent[1]));
  });

  it('keeps forms apart: an address pending on one form may sign up on another', async () => {
    const two = await createTestNewsletter([
      { path: '/news', type: 'newsletter' },
      { path: '/offers', type: 'newsletter' },
    ]);
    try {
      const [news, offers] = two.forms;
      assert.equal(await two.newsletter.signup(news!, 'ada@example.org'), 'ok');
      assert.equal(await two.newsletter.signup(offers!, 'ada@example.org'), 'ok');
      assert.equal(await two.newsletter.confirm(offers!, tokenOf(two.mailer.sent[0])), 'gone');
    } finally {
      await two.close();
    }
  });

  it('two signups of one address at the same moment store and mail once', async () => {
    const outcomes = await Promise.all([
      harness.newsletter.signup(harness.form, 'ada@example.org'),
      harness.newsletter.signup(harness.form, 'Ada@example.org'),
    ]);
    assert.deepEqual(outcomes.sort(), ['duplicate', 'ok']);
    await harness.newsletter.settled();
    assert.equal(harness.mailer.sent.length, 1);
    assert.deepEqual((await readJsonLines(journal)).map((line) => line.email).sort(), ['', 'ada@example.org']);
  });

  it('takes every spelling of one mailbox for one address: a burst of quoted variants gets one mail, unquoted', async () => {
    const variants = ['bomb@example.com', '"bomb"@example.com', '"b\\omb"@example.com', '"\\b\\o\\m\\b"@example.com', 'BOMB@example.com', '"Bomb"@EXAMPLE.com', '"bo\\mb"@example.com'];
    const outcomes = await Promise.all(variants.map((email) => harness.newsletter.signup(harness.form, email)));
    assert.equal(outcomes.filter((outcome) => outcome === 'ok').length, 1);
    await harness.newsletter.settled();
    assert.equal(harness.mailer.sent.length, 1);
    assert.equal(harness.mailer.sent[0]?.to.toLowerCase(), 'bomb@example.com');
    // Later, one at a time: the pending address again.
    assert.equal(await harness.newsletter.signup(harness.form, '"b\\o\\m\\b"@example.com'), 'duplicate');
    await harness.newsletter.settled();
    assert.equal(harness.mailer.sent.length, 1);
  });

  it('answers storage_failed and sends nothing when the pending record cannot be stored', async () => {
    await rm(journal, { force: true });
    await mkdir(journal); // a folder where the journal file goes: every append fails
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'storage_failed');
    assert.equal(harness.mailer.sent.length, 0);
    assert.equal(counters(harness)?.persist_failed, 1);
    assert.equal(counters(harness)?.confirmation_sent, 0);
    await rm(journal, { recursive: true });
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'ok', 'nothing was left pending');
  });

  it('counts send_failed after the answer, removes the pending record, and lets the person try again', async () => {
    harness.mailer.failNext = 1;
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'ok', 'answered before the mail is handed over');
    await harness.newsletter.settled();
    assert.equal(counters(harness)?.send_failed, 1);
    assert.equal(counters(harness)?.confirmation_sent, 0);
    const lines = await readJsonLines(journal);
    assert.deepEqual(lines.map((line) => line.op), ['pending', 'removed']);
    assert.equal(lines[1]?.hash, lines[0]?.hash);

    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'ok');
    await harness.newsletter.settled();
    assert.equal(harness.mailer.sent.length, 1);
    await harness.restart();
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'duplicate', 'the retry is pending after a restart');
    harness.mailer.failNext = 1;
    assert.equal(await harness.newsletter.signup(harness.form, 'bob@example.org'), 'ok');
    await harness.restart();
    assert.equal(await harness.newsletter.signup(harness.form, 'bob@example.org'), 'ok', 'the removal survives a restart (close waits for the mail)');
  });
});
