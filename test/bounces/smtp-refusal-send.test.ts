// A permanent refusal at send time as a bounce (docs/bounces.md "Suppression"): a real SMTP server refuses RCPT TO
// with "550 5.1.1 user unknown" (hard: suppressed at once) or "552 5.2.2 mailbox full" (soft: the third one
// suppresses), through the queue and without it; a refused owner address is an error line, never suppressed.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createSmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { waitFor } from '../support/wait.js';

/** Replies to RCPT TO by address; anything else is accepted. */
const REFUSALS: Record<string, { code: number; text: string }> = {
  'gone@example.org': { code: 550, text: '5.1.1 <gone@example.org>: Recipient address rejected: User unknown' },
  'full@example.org': { code: 552, text: '5.2.2 <full@example.org>: Mailbox full' },
  'typo-owner@example.com': { code: 550, text: '5.1.1 <typo-owner@example.com>: User unknown' },
};

describe('a refusal at RCPT TO', () => {
  let server: SMTPServer;
  let port: number;
  /** RCPT TO attempts per address. */
  const attempts = new Map<string, number>();
  before(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        attempts.set(address.address, (attempts.get(address.address) ?? 0) + 1);
        const refusal = REFUSALS[address.address];
        callback(refusal ? Object.assign(new Error(refusal.text), { responseCode: refusal.code }) : undefined);
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const start = useTestFormsService();

  const startForms = (queue: boolean, to?: string) =>
    start({
      forms: [{ path: '/contact', type: 'contact', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0, ...(to ? { to } : {}) }],
      extra: { mail: { queue, transport: 'smtp', smtp: { host: '127.0.0.1', port }, bounces: { address: 'bounces@example.com' } } },
      deps: { mailer: createSmtpMailer({ host: '127.0.0.1', port, secure: false }) },
    });

  const submit = (forms: TestFormsService, email: string) =>
    forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ name: 'Ada', email, message: 'Hello there, a message.' }) });

  it('suppresses an address refused as unknown at once, without the queue, and sends it no receipt again', async () => {
    attempts.clear();
    const forms = await startForms(false);
    assert.equal((await submit(forms, 'gone@example.org')).statusCode, 200, 'the owner mail went');
    const [entry] = await forms.backend.suppressions.list();
    assert.deepEqual({ address: entry?.address, kind: entry?.kind, source: entry?.source }, { address: 'gone@example.org', kind: 'hard', source: 'smtp' });
    assert.doesNotMatch(entry!.reason, /gone@example\.org/);
    assert.match(entry!.reason, /^550 5\.1\.1 <address>/);
    assert.equal((await submit(forms, 'gone@example.org')).statusCode, 200);
    assert.equal(attempts.get('gone@example.org'), 1, 'the second receipt was not tried');
    assert.equal(attempts.get('owner@example.com'), 2, 'both owner mails were');
    assert.ok(forms.logs.lines().some((line) => line.event === 'mail_suppressed' && line.mail === 'receipt'));
  });

  it('counts a mailbox refused as full as soft, through the queue: the third refusal suppresses', async () => {
    attempts.clear();
    const forms = await startForms(true);
    for (let round = 1; round <= 3; round += 1) {
      await submit(forms, 'full@example.org');
      await waitFor(`refusal ${round}`, () => (forms.core.queue!.counts().pending === 0 && attempts.get('full@example.org') === round ? true : undefined));
      assert.equal(await forms.backend.suppressions.isSuppressed('full@example.org'), round === 3, `after refusal ${round}`);
    }
    assert.equal((await forms.backend.suppressions.list())[0]?.kind, 'soft');
    await submit(forms, 'full@example.org');
    await waitFor('the owner mail', () => (attempts.get('owner@example.com') === 4 && forms.core.queue!.counts().pending === 0 ? true : undefined));
    assert.equal(attempts.get('full@example.org'), 3, 'no fourth receipt');
  });

  it("never suppresses the owner's refused address: it is an error line", async () => {
    attempts.clear();
    const forms = await startForms(true, 'typo-owner@example.com');
    await submit(forms, 'ada@example.org');
    await waitFor('the owner mail given up', () => (forms.core.queue!.counts().failed === 1 ? true : undefined));
    assert.deepEqual(await forms.backend.suppressions.list(), []);
    const error = forms.logs.lines().find((line) => line.event === 'bounce_owner');
    assert.equal(error?.level, 50);
    assert.equal(error?.source, 'smtp');
    assert.equal(error?.mail, 'owner');
    assert.doesNotMatch(forms.logs.text(), /typo-owner@example\.com/);
  });
});
