// The texts of a submission (pure): owner mail, chat text, receipt, and the safe failure reasons logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FormConfig } from '../../src/config/config.js';
import { toArchiveLine } from '../../src/forms/archive.js';
import { safeReason } from '../../src/kit/safe-reason.js';
import { composeChatText, composeOwnerMail, composeReceipt, composeWebhookEvent, resolveSiteName } from '../../src/forms/notifications.js';
import { loadTestConfig } from '../support/config.js';

const form: FormConfig = loadTestConfig(
  { mail: { from: 'f@example.com', to: 'o@example.com' }, forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://www.example.com:8443'] }] },
  '/',
).forms[0] as FormConfig;
const addresses = { from: 'Forms <forms@example.com>', owner: 'owner@example.com' };
const submission = { name: 'Ada Lovelace', email: 'ada@example.org', service: 'Hosting', message: 'Line one\nLine two' };
const notice = { form, submission, receivedAt: '2024-05-01T12:00:00.000Z' };

describe('composeOwnerMail', () => {
  it('From mail.from, To the owner, Reply-To the submitter, a subject with form type and name, every field in the text', () => {
    const mail = composeOwnerMail(notice, addresses);
    assert.equal(mail.from, addresses.from);
    assert.equal(mail.to, 'owner@example.com');
    assert.equal(mail.replyTo, 'ada@example.org');
    assert.equal(mail.autoSubmitted, 'auto-generated', 'RFC 3834: written by a program, not an answer');
    assert.equal(mail.subject, 'New contact form submission from Ada Lovelace');
    for (const line of ['Name: Ada Lovelace', 'Email: ada@example.org', 'Service: Hosting', 'Received: 2024-05-01T12:00:00.000Z', 'Line one\nLine two']) {
      assert.ok(mail.text.includes(line), line);
    }
  });

  it('flattens control characters of the name in the subject, and says when there is no name', () => {
    const hostile = composeOwnerMail({ ...notice, submission: { ...submission, name: 'Ada\r\nBcc: x@evil.example\u2028\u0085!' } }, addresses);
    assert.equal(hostile.subject, 'New contact form submission from Ada Bcc: x@evil.example !');
    const { name: _name, ...anonymous } = submission;
    assert.equal(composeOwnerMail({ ...notice, submission: anonymous }, addresses).subject, 'New contact form submission from an anonymous sender');
  });

  // A mail program decodes encoded words in a Subject: one that spells CR LF must not reach it as a word.
  const encodedNames: Array<[string, string]> = [
    ['=?UTF-8?Q?a=0D=0ABcc:_x@y?=', 'Q, upper case'],
    [`=?utf-8?b?${Buffer.from('a\r\nBcc: x@y').toString('base64')}?=`, 'B, lower case'],
    ['=?utf-8?q?a?= =?utf-8?q?=0D=0ABcc:_x@y?=', 'two words, the space between them dropped as RFC 2047 drops it'],
    ['=?UTF-8?Q?=3D=3FUTF-8=3FQ=3Fa=3D0D=3D0ABcc:=5Fx@y=3F=3D?=', 'a word that decodes to another word'],
    ['=?x-no-such-charset?Q?a=0D=0ABcc:_x@y?=', 'a charset nobody knows, read as Latin-1'],
  ];
  for (const [name, what] of encodedNames) {
    it(`decodes, then flattens, RFC 2047 encoded words of the name in the subject: ${what}`, () => {
      const mail = composeOwnerMail({ ...notice, submission: { ...submission, name } }, addresses);
      assert.equal(mail.subject, 'New contact form submission from a Bcc: x@y');
      assert.ok(mail.text.includes(`Name: ${name}`), 'the body shows the name as it was sent');
    });
  }
});

describe('composeChatText', () => {
  it('carries the same fields as the mail and leaves absent ones out', () => {
    const text = composeChatText({ ...notice, submission: { email: 'ada@example.org', message: 'Hi there' } });
    assert.match(text, /Email: ada@example\.org/);
    assert.match(text, /Hi there/);
    assert.doesNotMatch(text, /Name:|Service:/);
  });
});

describe('composeWebhookEvent', () => {
  it('is the archive line fields with the given id, as plain data', () => {
    const event = composeWebhookEvent(notice, 'evt_1');
    assert.deepEqual(event, { id: 'evt_1', ...toArchiveLine(notice) });
    assert.deepEqual(JSON.parse(JSON.stringify(event)), event);
    const { name: _name, service: _service, ...sparse } = submission;
    assert.deepEqual(Object.keys(composeWebhookEvent({ ...notice, submission: sparse }, 'evt_2')), ['id', 'form', 'type', 'received_at', 'email', 'message']);
  });
});

describe('composeReceipt', () => {
  it('goes to the submitter from mail.from, names the site and nothing the submitter typed, no owner address', () => {
    const receipt = composeReceipt({ ...submission, name: 'Spammy McSpam', message: 'Click evil.example' }, addresses.from, 'Example Site');
    assert.equal(receipt.to, 'ada@example.org');
    assert.equal(receipt.from, addresses.from);
    assert.equal(receipt.replyTo, undefined);
    assert.equal(receipt.autoSubmitted, 'auto-replied', 'RFC 3834: an automatic answer to what was sent');
    assert.match(receipt.subject, /Example Site/);
    const all = JSON.stringify(receipt);
    for (const typed of ['Spammy', 'evil.example', 'Hosting', addresses.owner]) assert.ok(!all.includes(typed), typed);
  });

  it('resolveSiteName: [site] title, else the first allowed origin host, else public_url host', () => {
    assert.equal(resolveSiteName('My Site', form, undefined), 'My Site');
    assert.equal(resolveSiteName(undefined, form, 'https://forms.example.net'), 'www.example.com:8443');
    assert.equal(resolveSiteName(undefined, { ...form, allowed_origins: [] }, 'https://forms.example.net'), 'forms.example.net');
    assert.equal(resolveSiteName(undefined, { ...form, allowed_origins: [] }, undefined), 'our website');
  });
});

describe('toArchiveLine', () => {
  it('has exactly the fields of docs/forms-api.md "Delivery", in order, absent ones left out', () => {
    assert.deepEqual(Object.keys(toArchiveLine(notice)), ['received_at', 'form', 'type', 'name', 'email', 'service', 'message']);
    assert.deepEqual(toArchiveLine({ ...notice, submission: { email: 'a@b.example' } }), {
      received_at: '2024-05-01T12:00:00.000Z',
      form: '/contact',
      type: 'contact',
      email: 'a@b.example',
    });
  });
});

describe('safeReason', () => {
  it('gives SMTP codes, error codes and Telegram reasons, never a message', () => {
    assert.equal(safeReason(Object.assign(new Error('550 <ada@example.org> unknown'), { code: 'EENVELOPE', responseCode: 550 })), 'smtp_550');
    assert.equal(safeReason(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })), 'ECONNECTION');
    assert.equal(safeReason({ reason: 'http_502' }), 'http_502');
    assert.equal(safeReason(new Error('https://api.telegram.org/bot123:SECRET/sendMessage')), 'error');
    assert.equal(safeReason({ code: 'ada@example.org' }), 'error');
    assert.equal(safeReason(undefined), 'error');
  });
});
