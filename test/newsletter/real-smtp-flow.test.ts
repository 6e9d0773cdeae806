// The whole double opt-in through the real forms app on a loopback socket, with confirmation and owner mails
// delivered to a real SMTP server: the link is taken from the received mail and opened with a real HTTP GET.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunningNewsletter } from '../../src/newsletter/flow.js';
import type { Mailer } from '../../src/ports.js';
import type { RunningServer } from '../../src/http/http-server.js';
import { createSmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { createTestFormsService, OWNER_ADDRESS, TEST_ORIGIN, type TestFormsService } from '../support/forms-app.js';
import { readJsonLines } from '../support/json-lines.js';
import { rawHeaderValues, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';

const PUBLIC_URL = 'https://forms.example.com';
const LINK = /https:\/\/forms\.example\.com\/newsletter\/confirm\?token=([A-Za-z0-9_-]{43})(?=\s)/;

describe('newsletter over real SMTP and HTTP', () => {
  let smtp: TestSmtpServer;
  let forms: TestFormsService;
  let base: string;
  let server: RunningServer;
  let mailer: Mailer;

  before(async () => {
    smtp = await startSmtpServer();
    mailer = createSmtpMailer({ host: smtp.host, port: smtp.port, secure: false });
    forms = await createTestFormsService({
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], subscribers: 'subscribers.jsonl' }],
      extra: {
        server: { public_url: PUBLIC_URL, listen: '127.0.0.1:0' },
        mail: { transport: 'smtp', smtp: { host: smtp.host, port: smtp.port, secure: false } },
      },
      deps: { mailer, clock: Date.now }, // the real SMTP mailer and real time
    });
    server = await forms.app.listen();
    base = server.address;
  });
  after(async () => {
    await server.close(0);
    await forms.close();
    await mailer.close();
    await smtp.close();
  });

  /** Until the confirmation mails of the signups answered so far are handed over. */
  const settled = () => (forms.core.newsletter as RunningNewsletter).settled();
  const signUp = (email: string) =>
    fetch(`${base}/newsletter`, { method: 'POST', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, body: JSON.stringify({ email }) });
  /** Opens the link the way a browser would, against the socket the test listens on. */
  const open = (link: string) => {
    const url = new URL(link);
    return fetch(`${base}${url.pathname}${url.search}`, { redirect: 'manual' });
  };
  const linkIn = (message: ReceivedMessage | undefined) => {
    const match = LINK.exec(message?.parsed.text ?? '');
    assert.ok(match, `no link in ${JSON.stringify(message?.parsed.text)}`);
    return match[0];
  };

  it('signs up, confirms from the mailed link once, and notifies the owner', async () => {
    const response = await signUp('Ada.Lovelace@Example.org');
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '{"ok":true}');
    const [confirmation] = await smtp.waitForMessages(1);
    assert.deepEqual(confirmation?.recipients.map((address) => address.toLowerCase()), ['ada.lovelace@example.org']);
    assert.equal(confirmation?.parsed.subject, 'Please confirm your newsletter subscription');
    assert.deepEqual(rawHeaderValues(confirmation!.raw, 'Reply-To'), []);
    const link = linkIn(confirmation);

    const page = await open(link);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await page.text(), /Subscription confirmed/);

    const [, notice] = await smtp.waitForMessages(2);
    assert.deepEqual(notice?.recipients, [OWNER_ADDRESS]);
    assert.equal(notice?.parsed.subject, 'New newsletter subscriber on /newsletter');
    assert.ok(notice?.parsed.text?.includes('Ada.Lovelace@Example.org'));
    assert.ok(!rawHeaderValues(notice!.raw, 'Subject').concat(rawHeaderValues(notice!.raw, 'Reply-To')).join(' ').includes('Lovelace'));

    const lines = await readJsonLines(path.join(forms.dataDir, 'subscribers.jsonl'));
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.email, 'Ada.Lovelace@Example.org');

    const again = await open(link);
    assert.equal(again.status, 410);
    assert.equal(again.headers.get('cache-control'), 'no-store');
    assert.match(await again.text(), /used or expired/);
  });

  it('answers a duplicate exactly like a new signup and mails nothing', async () => {
    const before = smtp.received.length;
    const duplicate = await signUp('ada.lovelace@example.ORG');
    assert.equal(duplicate.status, 200);
    assert.equal(await duplicate.text(), '{"ok":true}');
    // The mail of a signup is handed over after its answer: wait for that too, then nothing may have come.
    await settled();
    assert.equal(smtp.received.length, before);
    const metrics = await forms.metrics();
    assert.equal(metrics.forms['/newsletter']?.duplicate_signup, 1);
    assert.equal(metrics.forms['/newsletter']?.confirmation_sent, 1);
    assert.equal(metrics.forms['/newsletter']?.confirmed, 1);
    assert.equal(metrics.forms['/newsletter']?.sent, 1);
  });

  it('a refused confirmation mail is 500 send_failed without the queue, counts send_failed, and the person can sign up again', async () => {
    smtp.options = { rejectRecipient: (address) => address === 'bob@example.org' };
    const refused = await signUp('bob@example.org');
    assert.equal(refused.status, 500);
    assert.equal(((await refused.json()) as { error: string }).error, 'send_failed');
    await settled();
    assert.equal((await forms.metrics()).forms['/newsletter']?.send_failed, 1);
    smtp.options = {};
    const before = smtp.received.length;
    const retried = await signUp('bob@example.org');
    assert.equal(retried.status, 200);
    const messages = await smtp.waitForMessages(before + 1);
    assert.equal((await open(linkIn(messages.at(-1)))).status, 200);
  });

  it('an unknown or missing token is a 410 page', async () => {
    for (const url of ['/newsletter/confirm', '/newsletter/confirm?token=', '/newsletter/confirm?token=abc']) {
      const response = await fetch(`${base}${url}`);
      assert.equal(response.status, 410, url);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    }
  });

  it('logs neither tokens nor addresses', () => {
    const text = forms.logs.text();
    assert.ok(text.includes('"event":"confirmation_sent"'));
    for (const secret of ['lovelace', 'bob@', 'token=', ...smtp.received.map((message) => LINK.exec(message.parsed.text ?? '')?.[1]).filter(Boolean)]) {
      assert.ok(!text.toLowerCase().includes(String(secret).toLowerCase()), `log mentions ${secret}`);
    }
  });
});
