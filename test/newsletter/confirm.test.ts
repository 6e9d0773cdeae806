// Confirmations through createNewsletter with fakes: the three pages, expiry, single use, races, write failures.
import assert from 'node:assert/strict';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HOUR_MS, TEST_EPOCH_MS } from '../support/clock.js';
import { readJsonLines } from '../support/json-lines.js';
import { counters, createTestNewsletter, tokenOf, type TestNewsletter } from '../support/newsletter.js';

describe('newsletter confirm', () => {
  let harness: TestNewsletter;
  let subscribersFile: string;
  let token: string;
  beforeEach(async () => {
    harness = await createTestNewsletter();
    subscribersFile = path.join(harness.dataDir, 'newsletter-subscribers.jsonl');
    assert.equal(await harness.newsletter.signup(harness.form, 'Ada@Example.org'), 'ok');
    token = tokenOf(harness.mailer.sent[0]);
    harness.mailer.sent.length = 0;
  });
  afterEach(() => harness.close());

  it('appends the subscriber line, notifies the owner and shows the 200 page', async () => {
    harness.clock.set(TEST_EPOCH_MS + HOUR_MS);
    const page = await harness.newsletter.confirm(harness.form, token);
    assert.equal(page, 'confirmed');
    assert.deepEqual(await readJsonLines(subscribersFile), [
      { event: 'subscribed', email: 'Ada@Example.org', form: '/newsletter', subscribed_at: '2024-05-01T13:00:00.000Z', signed_up_at: '2024-05-01T12:00:00.000Z', source: '/newsletter' },
    ]);
    assert.equal(harness.mailer.sent.length, 1);
    const notice = harness.mailer.sent[0]!;
    assert.equal(notice.to, 'owner@example.com');
    assert.equal(notice.replyTo, undefined);
    assert.equal(notice.subject, 'New newsletter subscriber on /newsletter');
    assert.ok(notice.text.includes('Ada@Example.org'));
    const count = counters(harness)!;
    assert.equal(count.confirmed, 1);
    assert.equal(count.sent, 1);
    assert.equal(count.confirmation_failed, 0);
  });

  it('shows the 410 page for a missing or unknown token', async () => {
    for (const candidate of [undefined, '', 'not-a-token', token.slice(0, -1)]) {
      const page = await harness.newsletter.confirm(harness.form, candidate);
      assert.equal(page, 'gone', String(candidate));
    }
    assert.equal(counters(harness)?.confirmation_failed, 4);
    assert.equal((await readJsonLines(subscribersFile)).length, 0);
    assert.equal(harness.mailer.sent.length, 0);
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'confirmed', 'the real token still works');
  });

  it('refuses a token on a form other than the one it was made for', async () => {
    const two = await createTestNewsletter([
      { path: '/news', type: 'newsletter', subscribers: 'shared.jsonl' },
      { path: '/offers', type: 'newsletter', subscribers: 'shared.jsonl' },
    ]);
    try {
      const [news, offers] = two.forms;
      await two.newsletter.signup(news!, 'ada@example.org');
      const newsToken = tokenOf(two.mailer.sent[0]);
      assert.equal(await two.newsletter.confirm(offers!, newsToken), 'gone');
      assert.equal(await two.newsletter.confirm(news!, newsToken), 'confirmed');
      assert.deepEqual((await readJsonLines(path.join(two.dataDir, 'shared.jsonl'))).map((line) => line.form), ['/news']);
      await two.restart();
      assert.equal(await two.newsletter.signup(news!, 'ada@example.org'), 'duplicate');
      assert.equal(await two.newsletter.signup(offers!, 'ada@example.org'), 'ok', 'a shared log keeps forms apart');
    } finally {
      await two.close();
    }
  });

  it('works until the expiry instant and answers 410 from then on (injected clock)', async () => {
    harness.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS);
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'gone');
    harness.clock.set(TEST_EPOCH_MS + 48 * HOUR_MS - 1);
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'confirmed');
    assert.equal(counters(harness)?.confirmation_failed, 1);
    assert.equal(counters(harness)?.confirmed, 1);
  });

  it('is single use: the second confirmation answers 410 and writes nothing', async () => {
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'confirmed');
    const second = await harness.newsletter.confirm(harness.form, token);
    assert.equal(second, 'gone');
    assert.equal((await readJsonLines(subscribersFile)).length, 1);
    assert.equal(harness.mailer.sent.length, 1, 'one owner notice');
  });

  it('two confirmations at the same moment: one 200, one 410, one subscriber line', async () => {
    const pages = await Promise.all([
      harness.newsletter.confirm(harness.form, token),
      harness.newsletter.confirm(harness.form, token),
      harness.newsletter.confirm(harness.form, token),
    ]);
    assert.deepEqual([...pages].sort(), ['confirmed', 'gone', 'gone']);
    assert.equal((await readJsonLines(subscribersFile)).length, 1);
    assert.equal(counters(harness)?.confirmed, 1);
    assert.equal(counters(harness)?.confirmation_failed, 2);
  });

  it('a failed write shows the 500 page and keeps the link usable until the log is writable again', async () => {
    await mkdir(subscribersFile); // a folder where the log goes: the append fails
    const failed = await harness.newsletter.confirm(harness.form, token);
    assert.equal(failed, 'not_saved');
    assert.equal(harness.mailer.sent.length, 0, 'no owner notice');
    assert.equal(counters(harness)?.confirmation_failed, 1);
    assert.equal(counters(harness)?.persist_failed, 1);
    assert.equal(counters(harness)?.confirmed, 0);
    assert.equal(await harness.newsletter.signup(harness.form, 'ada@example.org'), 'duplicate', 'still pending');

    await rm(subscribersFile, { recursive: true });
    const retried = await harness.newsletter.confirm(harness.form, token);
    assert.equal(retried, 'confirmed');
    assert.equal((await readJsonLines(subscribersFile)).length, 1);
    assert.equal(counters(harness)?.confirmed, 1);
  });

  it('an existing log made unwritable and writable again keeps its lines and gains one', async () => {
    await harness.newsletter.signup(harness.form, 'bob@example.org');
    const bobToken = tokenOf(harness.mailer.sent[0]);
    assert.equal(await harness.newsletter.confirm(harness.form, bobToken), 'confirmed');
    const aside = `${subscribersFile}.aside`;
    await rename(subscribersFile, aside);
    await mkdir(subscribersFile);
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'not_saved');
    await rm(subscribersFile, { recursive: true });
    await rename(aside, subscribersFile);
    assert.equal(await harness.newsletter.confirm(harness.form, token), 'confirmed');
    assert.deepEqual((await readJsonLines(subscribersFile)).map((line) => line.email), ['bob@example.org', 'Ada@Example.org']);
  });

  it('a failed owner notice leaves the subscription confirmed and counts send_failed', async () => {
    harness.mailer.failNext = 1;
    const page = await harness.newsletter.confirm(harness.form, token);
    assert.equal(page, 'confirmed');
    assert.equal((await readJsonLines(subscribersFile)).length, 1);
    assert.equal(counters(harness)?.confirmed, 1);
    assert.equal(counters(harness)?.send_failed, 1);
    assert.equal(counters(harness)?.sent, 0);
    assert.ok(harness.logs.lines().some((line) => line.event === 'owner_notification_failed'));
  });

  it('never logs a token or an address', async () => {
    harness.mailer.failNext = 1;
    await harness.newsletter.signup(harness.form, 'carol@example.org');
    await harness.newsletter.signup(harness.form, 'ADA@example.org');
    await harness.newsletter.confirm(harness.form, 'bogus-token-value');
    await mkdir(subscribersFile);
    await harness.newsletter.confirm(harness.form, token);
    await rm(subscribersFile, { recursive: true });
    harness.mailer.failNext = 1;
    await harness.newsletter.confirm(harness.form, token);
    await harness.restart();
    const text = harness.logs.text();
    const events = harness.logs.lines().map((line) => line.event);
    for (const expected of ['confirmation_sent', 'confirmation_send_failed', 'duplicate_signup', 'confirmation_rejected', 'subscriber_write_failed', 'subscribed', 'owner_notification_failed', 'pending_loaded']) {
      assert.ok(events.includes(expected), expected);
    }
    for (const secret of [token, 'bogus-token-value', 'example.org', '@', 'refused mail']) {
      assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `log mentions ${secret}`);
    }
  });
});
