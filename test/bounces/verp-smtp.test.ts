// The tagged envelope sender and the suppression list on the way out (docs/bounces.md "Suppression"), through the
// real queue and nodemailer's SMTP transport to a real SMTP server: owner mails, receipts, confirmations, new
// subscribers' notices and campaign mails each leave with MAIL FROM `bounces+<tag>@example.com` naming that mail;
// a hard bounce of a receipt stops later receipts to that visitor while the owner mail of the same submission
// still goes (checked when queued), and a receipt whose visitor is suppressed while it waits is not sent (checked
// again when sent).
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createSmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import type { SentMail } from '../../src/bounces/bounce-store.js';
import { bounceKeyOf, createVerp } from '../../src/bounces/verp.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { isAddressedTo, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const BOUNCES = 'bounces@example.com';
const CONTACT = { path: '/contact', type: 'contact', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0 };
const NEWSLETTER = { path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0, subscribers: 'subscribers.jsonl' };
const CAMPAIGN = '20261123T120000Z-abcd';

describe('VERP envelope senders and the suppression list through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(async () => {
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.options = {};
  });
  const start = useTestFormsService();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const startForms = (dataDir?: string) =>
    start({
      dataDir,
      forms: [CONTACT, NEWSLETTER],
      extra: {
        server: { public_url: 'https://forms.example.com' },
        mail: { queue: true, send_per_minute: 0, transport: 'smtp', smtp: { host: '127.0.0.1', port: smtp.port }, bounces: { address: BOUNCES } },
      },
      deps: { mailer: createSmtpMailer({ host: '127.0.0.1', port: smtp.port, secure: false }) },
    });

  const submit = (forms: TestFormsService, email: string) =>
    forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ name: 'Ada', email, message: 'Hello there, a message.' }) });

  /** What the tag of a received message's MAIL FROM stands for. */
  async function sentMailOf(forms: TestFormsService, message: ReceivedMessage): Promise<SentMail> {
    const reading = createVerp(bounceKeyOf(await forms.backend.newsletter.secret())).read([message.mailFrom]);
    assert.ok(reading && reading !== 'forged', `a tag of ours in ${message.mailFrom}`);
    const sent = await forms.backend.suppressions.findSent(reading.id);
    assert.ok(sent, 'its record is kept');
    return sent;
  }

  const queueEmpty = (forms: TestFormsService) => waitFor('the queue to empty', () => (forms.core.queue!.counts().pending === 0 ? true : undefined));

  it('gives owner mails, receipts, confirmations, notices and campaign mails a tagged MAIL FROM naming each', async () => {
    const temp = await createTempDir('verp');
    cleanups.push(temp.remove);
    // A subscriber of old, beside the one who signs up below.
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), `${JSON.stringify({ event: 'subscribed', email: 'other@example.org', form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`);
    const forms = await startForms(temp.dir);
    assert.equal((await submit(forms, 'ada@example.org')).statusCode, 200);
    const signup = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ email: 'reader@example.org' }) });
    assert.equal(signup.statusCode, 200);
    const confirmation = await smtp.waitForMessage('the confirmation', (message) => isAddressedTo(message, 'reader@example.org'));
    const token = /\/confirm\?token=([A-Za-z0-9_-]+)/.exec(confirmation.parsed.text ?? '')![1]!;
    assert.equal((await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${token}` })).statusCode, 200);
    await createCampaignFiles(campaignsDirOf(forms.dataDir)).create(
      { id: CAMPAIGN, form: '/newsletter', slug: 'news', lang: 'en', subject: 'News', post_url: 'https://example.com/blog/news', created_at: '2026-11-23T12:00:00.000Z', recipients: 2, resend: false },
      { subject: 'News', lang: 'en', html: '<p>News</p>', text: 'News' },
      ['reader@example.org', 'other@example.org'],
    );
    const messages = await smtp.waitForMessages(6);
    const tags = new Set<string>();
    const kinds: Array<[string, string, boolean, string?]> = [];
    for (const message of messages) {
      assert.match(message.mailFrom, /^bounces\+[a-z2-7]{32}@example\.com$/, 'MAIL FROM is the tagged bounce address');
      assert.equal(message.mailFrom.slice('bounces+'.length).length, 32 + '@example.com'.length);
      assert.match(String(message.parsed.from?.text), /forms@example\.com/, 'the From header stays mail.from');
      tags.add(message.mailFrom);
      const sent = await sentMailOf(forms, message);
      assert.deepEqual(sent.to, message.recipients.map((address) => address.toLowerCase()));
      kinds.push([sent.kind, sent.to.join(), sent.owner, sent.campaign ? `${sent.campaign.campaign}#${sent.campaign.index}` : undefined]);
    }
    assert.equal(tags.size, 6, 'a tag of its own for each mail');
    assert.deepEqual(
      kinds.sort(),
      [
        ['confirmation', 'reader@example.org', false, undefined],
        ['newsletter', 'other@example.org', false, `${CAMPAIGN}#1`],
        ['newsletter', 'reader@example.org', false, `${CAMPAIGN}#0`],
        ['owner', 'owner@example.com', true, undefined],
        ['receipt', 'ada@example.org', false, undefined],
        ['subscriber_notice', 'owner@example.com', true, undefined],
      ],
    );
  });

  it('stops receipts to a visitor whose receipt bounced hard, while the owner mail of the same submission still goes', async () => {
    const forms = await startForms();
    await submit(forms, 'gone@example.org');
    const receipt = await smtp.waitForMessage('the first receipt', (message) => isAddressedTo(message, 'gone@example.org'));
    assert.equal(await forms.core.bounces!.sink.record({ source: 'imap', kind: 'hard', status: '5.1.1', reason: 'user unknown', sentTo: [receipt.mailFrom], at: forms.clock() }), 'suppressed');
    assert.equal(await forms.backend.suppressions.isSuppressed('GONE@example.org'), true);
    await queueEmpty(forms);
    smtp.received.length = 0;

    assert.equal((await submit(forms, 'gone@example.org')).statusCode, 200, 'the visitor is answered as ever');
    await submit(forms, 'ok@example.org');
    await smtp.waitForMessage("the other visitor's receipt", (message) => isAddressedTo(message, 'ok@example.org'));
    await queueEmpty(forms);
    const owners = smtp.received.filter((message) => isAddressedTo(message, 'owner@example.com'));
    assert.equal(owners.length, 2, 'both owner mails went');
    assert.ok(owners.some((message) => message.parsed.text?.includes('gone@example.org')), 'the owner mail of the suppressed visitor');
    assert.equal(smtp.received.filter((message) => isAddressedTo(message, 'gone@example.org')).length, 0, 'no receipt to the suppressed visitor');
    const held = forms.logs.lines().filter((line) => line.event === 'mail_suppressed');
    assert.deepEqual(held.map((line) => [line.mail, line.form]), [['receipt', '/contact']]);
    assert.equal((await forms.metrics()).totals.queued, 5, 'the suppressed receipt was never queued (2 + 1 + 2)');
  });

  it('sends no confirmation to a suppressed address, and answers its signup as any other', async () => {
    const forms = await startForms();
    await forms.backend.suppressions.suppress({ address: 'spam.reporter@example.org', kind: 'complaint', at: forms.clock(), reason: 'abuse', source: 'ses' });
    const signup = (email: string) =>
      forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ email }) });
    const suppressed = await signup('Spam.Reporter@example.org');
    const other = await signup('new.reader@example.org');
    assert.equal(suppressed.statusCode, other.statusCode);
    assert.equal(suppressed.body, other.body, 'the same answer: the form does not tell which addresses are suppressed');
    await smtp.waitForMessage('the other confirmation', (message) => isAddressedTo(message, 'new.reader@example.org'));
    await queueEmpty(forms);
    assert.equal(smtp.received.length, 1, 'no confirmation to the suppressed address');
    assert.deepEqual(
      forms.logs.lines().filter((line) => line.event === 'mail_suppressed').map((line) => [line.mail, line.form]),
      [['confirmation', '/newsletter']],
    );
  });

  it('skips a receipt whose visitor was suppressed while it waited in the queue', async () => {
    const forms = await startForms();
    let refusedOnce = false;
    smtp.options = {
      // The server says "try again later" to the receipt's first try; meanwhile a complaint about the visitor arrives.
      beforeAccept: async ({ recipients }) => {
        if (!recipients.includes('late@example.org') || refusedOnce) return true;
        refusedOnce = true;
        await forms.backend.suppressions.suppress({ address: 'late@example.org', kind: 'complaint', at: forms.clock(), reason: 'complaint', source: 'postmark' });
        return false;
      },
    };
    await submit(forms, 'late@example.org');
    await smtp.waitForMessage('the owner mail', (message) => isAddressedTo(message, 'owner@example.com'));
    await waitFor('the receipt to leave the queue', () => (refusedOnce && forms.core.queue!.counts().pending === 0 ? true : undefined));
    assert.equal(smtp.received.filter((message) => isAddressedTo(message, 'late@example.org')).length, 0);
    assert.equal(forms.core.queue!.counts().failed, 0, 'skipped, not failed');
    assert.ok(forms.logs.lines().some((line) => line.event === 'mail_suppressed' && line.mail === 'receipt'));
  });
});
