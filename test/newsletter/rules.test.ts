// Pure rules: tokens, expiry, journal replay, the two mails and the three pages.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { createToken, hashToken, TOKEN_BYTES } from '../../src/newsletter/token.js';
import { addressKey, expiryOf, isExpired, pendingEvent, replayJournal, type PendingRecord } from '../../src/newsletter/pending.js';
import { confirmationLink, confirmationMail, formatUtc, ownerNotice } from '../../src/newsletter/mails.js';
import { confirmedPage, confirmNotSavedPage, goneConfirmPage } from '../../src/newsletter/http/newsletter-pages.js';

const SITE = { name: 'example.com' };
const confirmPage = (kind: 'confirmed' | 'gone' | 'not_saved', ttlHours: number) =>
  kind === 'confirmed' ? confirmedPage(SITE) : kind === 'gone' ? goneConfirmPage(SITE, ttlHours) : confirmNotSavedPage(SITE);
import { HOUR_MS, TEST_EPOCH_MS } from '../support/clock.js';
import { loadNewsletterConfig, newsletterFormsOf } from '../support/newsletter.js';

const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);
const record = (hash: string, expiresAt: number, email = 'ada@example.org'): PendingRecord => ({
  hash, email, form: '/newsletter', createdAt: TEST_EPOCH_MS, expiresAt,
});

describe('tokens', () => {
  it('asks for 32 random bytes and encodes them base64url without padding', () => {
    const asked: number[] = [];
    const token = createToken((count) => {
      asked.push(count);
      return Buffer.alloc(count, 0xfb);
    });
    assert.deepEqual(asked, [TOKEN_BYTES]);
    assert.equal(TOKEN_BYTES, 32);
    assert.equal(token, Buffer.alloc(32, 0xfb).toString('base64url'));
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a random source that gives too few bytes', () => {
    assert.throws(() => createToken(() => Buffer.alloc(16)));
  });

  it('stores the SHA-256 of the token as hex', () => {
    assert.equal(hashToken('abc'), createHash('sha256').update('abc').digest('hex'));
    assert.notEqual(hashToken('abc'), hashToken('abd'));
  });
});

describe('expiry and address identity', () => {
  it('a link lives ttl hours and is dead from its expiry instant on', () => {
    const expiresAt = expiryOf(TEST_EPOCH_MS, 48);
    assert.equal(expiresAt, TEST_EPOCH_MS + 48 * HOUR_MS);
    assert.equal(isExpired(record(hashA, expiresAt), expiresAt - 1), false);
    assert.equal(isExpired(record(hashA, expiresAt), expiresAt), true);
    assert.equal(expiryOf(TEST_EPOCH_MS, 0.5), TEST_EPOCH_MS + HOUR_MS / 2);
  });

  it('compares addresses case-insensitively, per form', () => {
    assert.equal(addressKey('/n', 'Ada@Example.ORG'), addressKey('/n', 'ada@example.org'));
    assert.notEqual(addressKey('/n', 'ada@example.org'), addressKey('/m', 'ada@example.org'));
  });
});

describe('replayJournal', () => {
  it('adds on pending, ends on redeemed and removed, keeps the rest', () => {
    const c = 'c'.repeat(64);
    const lines = [
      pendingEvent(record(hashA, TEST_EPOCH_MS + HOUR_MS)),
      pendingEvent(record(hashB, TEST_EPOCH_MS + HOUR_MS, 'bob@example.org')),
      pendingEvent(record(c, TEST_EPOCH_MS + HOUR_MS, 'cy@example.org')),
      { op: 'redeemed', hash: hashA },
      { op: 'removed', hash: c },
    ];
    const { live, unknown } = replayJournal(lines, TEST_EPOCH_MS);
    assert.deepEqual([...live.keys()], [hashB]);
    assert.deepEqual(live.get(hashB), record(hashB, TEST_EPOCH_MS + HOUR_MS, 'bob@example.org'));
    assert.equal(unknown, 0);
  });

  it('drops expired records and counts lines that are not events', () => {
    const lines = [
      pendingEvent(record(hashA, TEST_EPOCH_MS + HOUR_MS)),
      pendingEvent(record(hashB, TEST_EPOCH_MS + 2 * HOUR_MS)),
      { op: 'pending', hash: 'short', email: 'x@example.org', form: '/n', created_at: 'x', expires_at: 'y' },
      { op: 'pending', hash: 'c'.repeat(64), email: 'x@example.org', form: '/n', created_at: 'not a time', expires_at: 'no' },
      { op: 'renamed', hash: hashA },
      'a string',
      null,
    ];
    const { live, unknown } = replayJournal(lines, TEST_EPOCH_MS + HOUR_MS);
    assert.deepEqual([...live.keys()], [hashB]);
    assert.equal(unknown, 5);
  });

  it('round-trips times through the RFC 3339 strings of the journal', () => {
    const event = pendingEvent(record(hashA, TEST_EPOCH_MS + 48 * HOUR_MS));
    assert.deepEqual(event, {
      op: 'pending', hash: hashA, email: 'ada@example.org', form: '/newsletter',
      created_at: '2024-05-01T12:00:00.000Z', expires_at: '2024-05-03T12:00:00.000Z',
    });
    assert.equal(replayJournal([event], TEST_EPOCH_MS).live.get(hashA)?.expiresAt, TEST_EPOCH_MS + 48 * HOUR_MS);
  });
});

describe('mails', () => {
  const config = loadNewsletterConfig('/tmp/unused', [{ path: '/news', type: 'newsletter', to: 'editor@example.com', subscribers: 'list.jsonl' }]);
  const form = newsletterFormsOf(config)[0]!;
  const mail = config.mail!;

  it('builds the link on public_url and the form path', () => {
    assert.equal(form.confirm_url, 'https://forms.example.com/news/confirm');
    assert.equal(confirmationLink(form.confirm_url, 'tok_-9'), 'https://forms.example.com/news/confirm?token=tok_-9');
    const trailingSlash = loadNewsletterConfig('/tmp/unused', [{ path: '/news/', type: 'newsletter' }]);
    assert.equal(newsletterFormsOf(trailingSlash)[0]!.confirm_url, 'https://forms.example.com/news/confirm');
  });

  it('confirmation mail: fixed text, the link, the expiry; the address only as recipient; auto-generated', () => {
    const message = confirmationMail(mail.from, 'Example Blog', 'ada@example.org', 'https://forms.example.com/news/confirm?token=T', TEST_EPOCH_MS + 48 * HOUR_MS);
    assert.equal(message.from, 'Example Forms <forms@example.com>');
    assert.equal(message.to, 'ada@example.org');
    assert.equal(message.replyTo, undefined);
    assert.equal(message.autoSubmitted, 'auto-generated');
    assert.equal(message.subject, 'Please confirm your newsletter subscription');
    assert.ok(message.text.includes('\nhttps://forms.example.com/news/confirm?token=T\n'));
    assert.ok(message.text.includes('until 2024-05-03 12:00 UTC'));
    assert.ok(message.text.includes('the newsletter of Example Blog.'));
    assert.ok(!message.text.includes('ada@'));
  });

  it('owner notice goes to the form owner and names the form; the address is in the body only; auto-generated', () => {
    const message = ownerNotice(mail.from, form, 'ada@example.org', TEST_EPOCH_MS, TEST_EPOCH_MS + HOUR_MS);
    assert.equal(message.to, 'editor@example.com');
    assert.equal(message.from, mail.from);
    assert.equal(message.replyTo, undefined);
    assert.equal(message.autoSubmitted, 'auto-generated');
    assert.equal(message.subject, 'New newsletter subscriber on /news');
    assert.ok(message.text.includes('ada@example.org'));
    assert.ok(message.text.includes('2024-05-01 13:00 UTC'));
    assert.ok(message.text.includes('list.jsonl'));
    assert.equal(formatUtc(TEST_EPOCH_MS), '2024-05-01 12:00 UTC');
  });

  it('owner notice falls back to mail.to', () => {
    const plain = loadNewsletterConfig('/tmp/unused');
    assert.equal(ownerNotice(plain.mail!.from, newsletterFormsOf(plain)[0]!, 'a@b.c', TEST_EPOCH_MS, TEST_EPOCH_MS).to, 'owner@example.com');
  });
});

describe('confirmation pages', () => {
  it('has one status per kind, in English, with a doctype and no external resources', () => {
    const pages = [confirmPage('confirmed', 48), confirmPage('gone', 48), confirmPage('not_saved', 48)];
    assert.deepEqual(pages.map((page) => page.status), [200, 410, 500]);
    for (const page of pages) {
      assert.match(page.html, /^<!doctype html>\n<html lang="en">/);
      assert.match(page.html, /<meta charset="utf-8"\/?>/);
      assert.match(page.html, /<title>[^<]+<\/title>/);
      assert.doesNotMatch(page.html, /\b(src|href)=|@import|url\(/);
    }
    assert.match(pages[0]!.html, /Subscription confirmed/);
    assert.match(pages[1]!.html, /used or expired/);
    assert.match(pages[1]!.html, /sign up again/);
    assert.match(pages[1]!.html, /2 days/);
    assert.match(pages[2]!.html, /could not be saved/);
    assert.match(pages[2]!.html, /link still works/);
  });

  it('names the lifetime in hours when it is not whole days', () => {
    assert.match(confirmPage('gone', 36).html, /36 hours/);
    assert.match(confirmPage('gone', 1).html, /1 hour\b/);
  });
});
