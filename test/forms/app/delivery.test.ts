// Persist-then-deliver (docs/forms-api.md "Delivery"): the archive line, mail and chat side by side, the receipt,
// each failure's answer and counters, and log lines free of personal data.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { TelegramSettings } from '../../../src/adapters/notify/telegram.js';
import type { ChatNotifier, MailMessage } from '../../../src/ports.js';
import { contactForm, FROM_ADDRESS, OWNER_ADDRESS, TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', service: 'Hosting', message: 'Hello! I would like a website.' };
const TELEGRAM = { bot_token: '123456:SECRET-BOT-TOKEN', chat_id: '42', api_url: 'http://127.0.0.1:9' };

interface FakeChat extends ChatNotifier {
  texts: string[];
  fail: boolean;
  settings?: TelegramSettings;
}

function createFakeChat(fail = false): FakeChat {
  const chat: FakeChat = {
    texts: [],
    fail,
    async send(text) {
      if (chat.fail) throw Object.assign(new Error('Telegram sendMessage failed: http_500'), { reason: 'http_500' });
      chat.texts.push(text);
    },
  };
  return chat;
}

const startService = useTestFormsService();

function start(options: { form?: Record<string, unknown>; chat?: FakeChat } = {}): Promise<TestFormsService> {
  const chat = options.chat;
  return startService({
    forms: [contactForm({ archive: 'contact.jsonl', ...(chat ? { telegram: TELEGRAM } : {}), ...options.form })],
    deps: chat
      ? {
          createChatNotifier: (settings) => {
            chat.settings = settings;
            return chat;
          },
        }
      : {},
  });
}

function post(forms: TestFormsService, body: unknown = ADA) {
  return forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify(body) });
}

async function archiveLines(forms: TestFormsService): Promise<unknown[]> {
  const text = await readFile(path.join(forms.dataDir, 'contact.jsonl'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

const isOwnerMail = (message: MailMessage) => message.to === OWNER_ADDRESS;

describe('archive', () => {
  it('appends {received_at, form, type, name, email, service, message} before anything is sent', async () => {
    const forms = await start();
    let linesAtFirstSend: unknown[] | undefined;
    forms.mailer.beforeSend = async () => {
      linesAtFirstSend ??= await archiveLines(forms);
    };
    const response = await post(forms);
    assert.equal(response.statusCode, 200);
    const expected = {
      received_at: '2024-05-01T12:00:00.000Z',
      form: '/contact',
      type: 'contact',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      service: 'Hosting',
      message: 'Hello! I would like a website.',
    };
    assert.deepEqual(await archiveLines(forms), [expected]);
    assert.deepEqual(linesAtFirstSend, [expected], 'the line was on disk when the first mail went out');
  });

  it('leaves absent optional fields out and stores trimmed values', async () => {
    const forms = await start({ form: { require_name: false } });
    await post(forms, { email: '  ada@example.org ', message: '  Hello there, friend.  ' });
    assert.deepEqual(await archiveLines(forms), [
      { received_at: '2024-05-01T12:00:00.000Z', form: '/contact', type: 'contact', email: 'ada@example.org', message: 'Hello there, friend.' },
    ]);
  });

  it('no line for honeypot hits or rejected submissions', async () => {
    const forms = await start();
    await post(forms, { ...ADA, website: 'spam' });
    await post(forms, { email: 'nope' });
    assert.deepEqual(await archiveLines(forms), []);
  });

  it('unwritable archive: 500 storage_failed, persist_failed counted, nothing sent', async () => {
    const forms = await start();
    await mkdir(path.join(forms.dataDir, 'contact.jsonl')); // a folder where the file should be
    const response = await post(forms);
    assert.equal(response.statusCode, 500);
    const body = response.json();
    assert.equal(body.error, 'storage_failed');
    assert.equal(typeof body.message, 'string');
    assert.equal(forms.mailer.sent.length + forms.mailer.refused.length, 0);
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.equal(metrics?.persist_failed, 1);
    assert.equal(metrics?.sent, 0);
    assert.equal(response.headers['access-control-allow-origin'], TEST_ORIGIN);
  });

  it('a delivery failure keeps the archived line: nothing is lost', async () => {
    const forms = await start();
    forms.mailer.failWhen = () => true;
    const response = await post(forms);
    assert.equal(response.statusCode, 500);
    assert.equal((await archiveLines(forms)).length, 1);
  });
});

describe('mail and chat side by side', () => {
  it('both get through: 200, sent counted, the chat text carries the fields, the token is used only in the URL', async () => {
    const chat = createFakeChat();
    const forms = await start({ chat });
    assert.equal((await post(forms)).statusCode, 200);
    assert.equal(chat.texts.length, 1);
    for (const value of Object.values(ADA)) assert.ok(chat.texts[0]?.includes(value), value);
    assert.deepEqual(chat.settings, { botToken: TELEGRAM.bot_token, chatId: '42', apiUrl: new URL(TELEGRAM.api_url).href });
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.sent, metrics?.telegram_failed, metrics?.send_failed], [1, 0, 0]);
    assert.ok(!forms.logs.text().includes('SECRET-BOT-TOKEN'));
  });

  it('mail fails, Telegram gets through: delivered (200), sent not counted, receipt still tried', async () => {
    const chat = createFakeChat();
    const forms = await start({ chat });
    forms.mailer.failWhen = isOwnerMail;
    const response = await post(forms);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { ok: true });
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.sent, metrics?.send_failed, metrics?.telegram_failed], [0, 0, 0]);
    assert.equal(forms.mailer.sent.length, 1, 'the receipt');
    assert.equal(forms.mailer.sent[0]?.to, 'ada@example.org');
    const events = forms.logs.lines().map((line) => line.event);
    assert.ok(events.includes('mail_failed') && events.includes('telegram_sent'));
  });

  it('Telegram fails, mail gets through: 200, telegram_failed and sent counted', async () => {
    const forms = await start({ chat: createFakeChat(true) });
    assert.equal((await post(forms)).statusCode, 200);
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.sent, metrics?.telegram_failed, metrics?.send_failed], [1, 1, 0]);
    const line = forms.logs.lines().find((entry) => entry.event === 'telegram_failed');
    assert.deepEqual({ form: line?.form, reason: line?.reason }, { form: '/contact', reason: 'http_500' });
  });

  it('both fail: 500 send_failed, send_failed and telegram_failed counted, no receipt', async () => {
    const forms = await start({ chat: createFakeChat(true) });
    forms.mailer.failWhen = () => true;
    const response = await post(forms);
    assert.equal(response.statusCode, 500);
    const body = response.json();
    assert.equal(body.error, 'send_failed');
    assert.equal(typeof body.message, 'string');
    assert.equal(forms.mailer.refused.length, 1, 'only the owner mail was tried');
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.sent, metrics?.telegram_failed, metrics?.send_failed, metrics?.auto_reply_failed], [0, 1, 1, 0]);
  });

  it('no chat configured and the mail fails: 500 send_failed', async () => {
    const forms = await start();
    forms.mailer.failWhen = () => true;
    const response = await post(forms);
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().error, 'send_failed');
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.send_failed, metrics?.telegram_failed], [1, 0]);
  });
});

describe('receipt', () => {
  it('goes to the submitter after the owner mail, names the site, echoes neither name nor message', async () => {
    const forms = await start();
    await post(forms, { ...ADA, name: 'Zyxwvut Qrstuv', message: 'Buy cheap pills at spam.example now!' });
    assert.equal(forms.mailer.sent.length, 2);
    const [owner, receipt] = forms.mailer.sent;
    assert.equal(owner?.to, OWNER_ADDRESS);
    assert.equal(receipt?.to, 'ada@example.org');
    assert.equal(receipt?.replyTo, undefined, 'the owner address stays private');
    assert.equal(receipt?.from, FROM_ADDRESS);
    const receiptText = `${receipt?.subject}\n${receipt?.text}`;
    assert.match(receiptText, /example\.com/);
    for (const echoed of ['Zyxwvut', 'Qrstuv', 'pills', 'spam.example']) assert.ok(!receiptText.includes(echoed), echoed);
  });

  it('a failing receipt only counts auto_reply_failed; the answer stays 200', async () => {
    const forms = await start();
    forms.mailer.failWhen = (message) => message.to === 'ada@example.org';
    const response = await post(forms);
    assert.equal(response.statusCode, 200);
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.sent, metrics?.auto_reply_failed, metrics?.send_failed], [1, 1, 0]);
    assert.ok(forms.logs.lines().some((line) => line.event === 'receipt_failed' && line.form === '/contact'));
  });

  it('receipt = false sends none', async () => {
    const forms = await start({ form: { receipt: false } });
    await post(forms);
    assert.deepEqual(forms.mailer.sent.map((message) => message.to), [OWNER_ADDRESS]);
  });
});

describe('logs', () => {
  it('name, email and message appear in no log line; every event line names the form', async () => {
    const chat = createFakeChat();
    const forms = await start({ chat });
    const secret = { name: 'Quentin Zebulon', email: 'quentin.zebulon@private.example', message: 'My confidential request text' };
    await post(forms, secret);
    chat.fail = true;
    forms.mailer.failWhen = () => true;
    await post(forms, secret);
    await post(forms, { ...secret, website: 'x' });
    await post(forms, { ...secret, email: 'quentin.zebulon@' });
    const text = forms.logs.text();
    for (const value of ['Quentin', 'Zebulon', 'quentin.zebulon', 'private.example', 'confidential']) {
      assert.ok(!text.includes(value), `"${value}" must not be logged`);
    }
    const events = forms.logs.lines().filter((line) => line.event !== undefined && String(line.event).match(/mail|telegram|receipt|honeypot/));
    assert.ok(events.length >= 5);
    for (const line of events) assert.equal(line.form, '/contact');
    const requests = forms.logs.lines().filter((line) => line.msg === 'request');
    assert.equal(requests.length, 4);
    for (const line of requests) {
      assert.deepEqual(Object.keys(line).sort(), ['duration_ms', 'ip', 'level', 'method', 'msg', 'path', 'status', 'time']);
    }
  });
});
