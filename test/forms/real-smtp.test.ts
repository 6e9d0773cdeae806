// The forms service over a real listening socket, delivering through nodemailer's pooled SMTP transport to a
// real SMTP server (smtp-server on loopback): the owner mail and the receipt checked header by header, a
// refusing server, and hostile input that must never become a header of its own. With `queue = false`: the
// synchronous answers of docs/forms-api.md "Delivery" (test/forms/queue/ drives the same server through the queue).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AddressObject } from 'mailparser';
import { createSmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { startServices, type RunningServices } from '../../src/cli/serve.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { rawHeaderValues, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';

const FROM = 'Example Forms <forms@example.com>';
const OWNER = 'owner@example.com';
const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', service: 'Hosting', message: 'Hello!\nI would like a website.' };

let smtp: TestSmtpServer;
let running: RunningServices;
let logs: LogCapture;
let baseUrl: string;
let removeDataDir: () => Promise<void>;

before(async () => {
  smtp = await startSmtpServer();
  const temp = await createTempDir('smtp');
  removeDataDir = temp.remove;
  const config = loadTestConfig(
    {
      data_dir: temp.dir,
      mail: { transport: 'smtp', queue: false, from: FROM, to: OWNER, smtp: { host: '127.0.0.1', port: smtp.port, secure: false } },
      site: { title: 'Example Site', base_url: 'https://example.com' },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 }],
    },
    temp.dir,
  );
  logs = captureLogs();
  // The production composition root: the real SMTP mailer built from [mail], the real appender and resolver.
  running = await startServices(config, { logger: logs.logger, requestLog: logs.requestLog });
  baseUrl = running.addresses.forms!;
});

after(async () => {
  await running.stop();
  await smtp.close();
  await removeDataDir();
});

beforeEach(() => {
  smtp.received.length = 0;
  smtp.options = {};
});

function post(body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function metrics(): Promise<Record<string, number>> {
  const response = await fetch(`${baseUrl}/metrics`);
  return ((await response.json()) as { forms: Record<string, Record<string, number>> }).forms['/contact'] as Record<string, number>;
}

function addresses(field: AddressObject | AddressObject[] | undefined): Array<{ name: string; address: string | undefined }> {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((entry) => entry.value.map((value) => ({ name: value.name, address: value.address })));
}

function messageTo(messages: ReceivedMessage[], address: string): ReceivedMessage {
  const found = messages.find((message) => message.recipients.includes(address));
  assert.ok(found, `a message to ${address}`);
  return found;
}

describe('delivery over real SMTP', () => {
  it('the owner mail: From, To, Reply-To, Subject, envelope and plain-text body', async () => {
    const response = await post(ADA);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
    const messages = await smtp.waitForMessages(2);
    const owner = messageTo(messages, OWNER);
    assert.deepEqual(owner.recipients, [OWNER]);
    assert.equal(owner.mailFrom, 'forms@example.com');
    assert.deepEqual(addresses(owner.parsed.from), [{ name: 'Example Forms', address: 'forms@example.com' }]);
    assert.deepEqual(addresses(owner.parsed.to), [{ name: '', address: OWNER }]);
    assert.deepEqual(addresses(owner.parsed.replyTo), [{ name: '', address: 'ada@example.org' }]);
    assert.equal(owner.parsed.subject, 'New contact form submission from Ada Lovelace');
    assert.deepEqual(rawHeaderValues(owner.raw, 'Auto-Submitted'), ['auto-generated']);
    assert.match(String(owner.parsed.headers.get('content-type') && (owner.parsed.headers.get('content-type') as { value: string }).value), /^text\/plain/);
    const text = owner.parsed.text ?? '';
    for (const line of ['Name: Ada Lovelace', 'Email: ada@example.org', 'Service: Hosting', 'Hello!\nI would like a website.']) {
      assert.ok(text.includes(line), `body has ${JSON.stringify(line)}`);
    }
  });

  it('the receipt: to the submitter, From mail.from, no Reply-To, naming the site, echoing nothing typed', async () => {
    await post({ ...ADA, name: 'Zyxwvut Qrstuv', message: 'Visit cheap-pills.example today!' });
    const receipt = messageTo(await smtp.waitForMessages(2), 'ada@example.org');
    assert.deepEqual(receipt.recipients, ['ada@example.org']);
    assert.equal(receipt.mailFrom, 'forms@example.com');
    assert.deepEqual(addresses(receipt.parsed.from), [{ name: 'Example Forms', address: 'forms@example.com' }]);
    assert.deepEqual(addresses(receipt.parsed.to), [{ name: '', address: 'ada@example.org' }]);
    assert.equal(receipt.parsed.replyTo, undefined);
    assert.match(receipt.parsed.subject ?? '', /Example Site/);
    assert.deepEqual(rawHeaderValues(receipt.raw, 'Auto-Submitted'), ['auto-replied']);
    assert.match(receipt.parsed.text ?? '', /Example Site/);
    for (const typed of ['Zyxwvut', 'Qrstuv', 'cheap-pills', 'Hosting']) assert.ok(!receipt.raw.includes(typed), typed);
  });

  it('no header of the receipt names the owner address: anyone can have a receipt sent to them', async () => {
    await post(ADA);
    const receipt = messageTo(await smtp.waitForMessages(2), 'ada@example.org');
    assert.ok(receipt.parsed.headerLines.length > 5, 'the parsed header lines');
    for (const { line } of receipt.parsed.headerLines) assert.ok(!line.toLowerCase().includes(OWNER), line);
    for (const [name, value] of receipt.parsed.headers) assert.ok(!JSON.stringify(value).toLowerCase().includes(OWNER), name);
    assert.ok(!receipt.raw.toLowerCase().includes(OWNER), 'nor the body');
  });

  it('a server refusing the recipient: 500 send_failed (no Telegram configured), send_failed counted, nothing accepted', async () => {
    const before = await metrics();
    smtp.options = { rejectRecipient: (address) => address === OWNER };
    const response = await post(ADA);
    assert.equal(response.status, 500);
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(body.error, 'send_failed');
    assert.doesNotMatch(body.message, /owner@example\.com|550/);
    const after = await metrics();
    assert.equal(after.send_failed, (before.send_failed ?? 0) + 1);
    assert.equal(after.sent, before.sent);
    assert.equal(after.auto_reply_failed, before.auto_reply_failed, 'no receipt after a failed delivery');
    assert.equal(smtp.received.length, 0);
    const failure = logs.lines().filter((line) => line.event === 'mail_failed').at(-1);
    assert.equal(failure?.form, '/contact');
    assert.ok(!JSON.stringify(failure).includes('owner@example.com'));
  });

  it('a server refusing the message data: 500 send_failed', async () => {
    smtp.options = { rejectData: ({ recipients }) => recipients.includes(OWNER) };
    const response = await post(ADA);
    assert.equal(response.status, 500);
    assert.equal(((await response.json()) as { error: string }).error, 'send_failed');
  });

  it('a refused receipt only counts auto_reply_failed; the pool keeps working afterwards', async () => {
    const before = await metrics();
    smtp.options = { rejectRecipient: (address) => address === 'ada@example.org' };
    assert.equal((await post(ADA)).status, 200);
    const after = await metrics();
    assert.equal(after.auto_reply_failed, (before.auto_reply_failed ?? 0) + 1);
    assert.equal(after.sent, (before.sent ?? 0) + 1);
    smtp.options = {};
    smtp.received.length = 0;
    assert.equal((await post(ADA)).status, 200);
    assert.equal((await smtp.waitForMessages(2)).length, 2);
  });
});

describe('header injection', () => {
  it('input with CR or LF never reaches a mail: rejected before anything is sent', async () => {
    for (const hostile of [
      { ...ADA, name: 'Ada\r\nBcc: victim@evil.example' },
      { ...ADA, name: 'Ada\nBcc: victim@evil.example' },
      { ...ADA, email: 'ada@example.org\r\nBcc: victim@evil.example' },
      { ...ADA, email: '"ada\r\n"@example.org' },
      { ...ADA, name: 'Ada\u2028Bcc: victim@evil.example' },
    ]) {
      const response = await post(hostile);
      assert.equal(response.status, 400, JSON.stringify(hostile));
    }
    assert.equal(smtp.received.length, 0);
  });

  it('header-like text that passes validation arrives inside its one header', async () => {
    const hostileName = 'Ada Bcc: victim@evil.example Subject: pwned';
    const hostileEmail = '"Bcc: victim@evil.example, x"@example.org';
    const response = await post({ ...ADA, name: hostileName, email: hostileEmail });
    assert.equal(response.status, 200);
    const [owner] = await smtp.waitForMessages(1);
    assert.ok(owner);
    assert.deepEqual(owner.recipients, [OWNER]);
    for (const header of ['Subject', 'To', 'Reply-To', 'From']) assert.equal(rawHeaderValues(owner.raw, header).length, 1, header);
    assert.equal(rawHeaderValues(owner.raw, 'Bcc').length, 0);
    assert.equal(owner.parsed.subject, `New contact form submission from ${hostileName}`);
    assert.deepEqual(addresses(owner.parsed.replyTo), [{ name: '', address: hostileEmail }]);
    // The receipt to that (valid but exotic) address may be refused by the server; it never goes elsewhere.
    for (const message of smtp.received) assert.ok(!message.recipients.includes('victim@evil.example'));
  });

  it('the mail adapter refuses addresses with line breaks and flattens a subject that has them', async () => {
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, secure: false });
    try {
      for (const message of [
        { to: `${OWNER}\r\nBcc: victim@evil.example` },
        { to: OWNER, replyTo: 'ada@example.org\nX-Injected: yes' },
        { to: OWNER, from: 'forms@example.com\rBcc: victim@evil.example' },
      ]) {
        await assert.rejects(mailer.send({ from: FROM, subject: 'Hi', text: 'text', autoSubmitted: 'auto-generated', ...message }), { code: 'EUNSAFEHEADER' });
      }
      await mailer.send({ from: FROM, to: OWNER, subject: 'Hello\r\nBcc: victim@evil.example\r\n\r\nbody takeover', text: 'text', autoSubmitted: 'auto-generated' });
    } finally {
      await mailer.close();
    }
    const [message] = await smtp.waitForMessages(1);
    assert.ok(message);
    assert.equal(smtp.received.length, 1);
    assert.deepEqual(message.recipients, [OWNER]);
    assert.equal(rawHeaderValues(message.raw, 'Bcc').length, 0);
    assert.deepEqual(rawHeaderValues(message.raw, 'Subject'), ['Hello Bcc: victim@evil.example body takeover']);
    assert.equal(message.parsed.text?.trim(), 'text');
  });
});
