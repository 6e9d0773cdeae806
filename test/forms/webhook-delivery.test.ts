// A form with [forms.webhook] delivering through the real webhook adapter to a local receiver: one channel
// beside the owner mail (and Telegram), the submission delivered when any of them got through.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createWebhookNotifier } from '../../src/adapters/notify/webhook.js';
import type { WebhookConfig } from '../../src/config/config.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { contactForm, createTestFormsService, OWNER_ADDRESS, type TestFormsService } from '../support/forms-app.js';
import type { TomlTable } from '../support/config.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', service: 'Hosting', message: 'Hello! I would like a website.' };
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=';
const SECRET_PATH = '/hooks/T0-SECRET-PATH';

describe('webhook notifications through the service', () => {
  let receiver: WebhookReceiver;
  let telegram: FakeTelegram;
  const open: TestFormsService[] = [];
  before(async () => {
    receiver = await startWebhookReceiver();
    telegram = await startFakeTelegram();
  });
  after(async () => {
    for (const forms of open) await forms.close();
    await receiver.close();
    await telegram.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.answer = 204;
    telegram.calls.length = 0;
    telegram.answer = 'ok';
  });

  /** The service with one contact form posting to the receiver; the webhook signs with the real time, as receivers check it. */
  async function start(webhook: TomlTable = {}, form: TomlTable = {}): Promise<TestFormsService> {
    const forms = await createTestFormsService({
      forms: [contactForm({ rate_limit_per_hour: 0, services: ['Hosting'], webhook: { url: receiver.url(SECRET_PATH), secret: SECRET, ...webhook }, ...form })],
      deps: { createWebhookNotifier: (settings: WebhookConfig) => createWebhookNotifier(settings, { timeoutMs: 300 }) },
    });
    open.push(forms);
    return forms;
  }

  const post = (forms: TestFormsService) =>
    forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ADA) });
  const counters = async (forms: TestFormsService) => (await forms.metrics()).forms['/contact'] as Record<string, number>;
  const events = (forms: TestFormsService, name: string) => forms.logs.lines().filter((line) => line.event === name);

  it('posts the signed submission beside the owner mail and the receipt; the receiver verifies it', async () => {
    const forms = await start();
    assert.equal((await post(forms)).statusCode, 200);
    assert.equal(receiver.requests.length, 1);
    const [request] = receiver.requests;
    assert.ok(request);
    assert.equal(request.path, SECRET_PATH);
    assert.match(request.headers['webhook-id'] ?? '', /^msg_[0-9a-f]{32}$/);
    assert.deepEqual(new Webhook(SECRET).verify(request.body, request.headers), {
      form: '/contact',
      type: 'contact',
      received_at: new Date(forms.clock()).toISOString(),
      ...ADA,
    });
    assert.deepEqual(forms.mailer.sent.map((message) => message.to), [OWNER_ADDRESS, ADA.email]);
    const sent = events(forms, 'webhook_sent');
    assert.equal(sent.length, 1);
    assert.deepEqual(Object.keys(sent[0] ?? {}).sort(), ['event', 'form', 'level', 'msg', 'time']);
    assert.equal(sent[0]?.form, '/contact');
  });

  it('gives each submission its own webhook-id', async () => {
    const forms = await start();
    await post(forms);
    await post(forms);
    const ids = receiver.requests.map((request) => request.headers['webhook-id']);
    assert.equal(ids.length, 2);
    assert.notEqual(ids[0], ids[1]);
  });

  it('the receiver answering 500: still 200 through the mail, webhook_failed logged with the reason only', async () => {
    const forms = await start();
    receiver.answer = 500;
    assert.equal((await post(forms)).statusCode, 200);
    const after = await counters(forms);
    assert.deepEqual([after.sent, after.send_failed, after.telegram_failed], [1, 0, 0]);
    const [failure] = events(forms, 'webhook_failed');
    assert.equal(failure?.form, '/contact');
    assert.equal(failure?.reason, 'http_500');
    assert.equal(failure?.level, 40, 'a warning');
  });

  it('the receiver not answering: the submission is answered once the webhook timed out, through the mail', async () => {
    const forms = await start();
    receiver.answer = 'hang';
    assert.equal((await post(forms)).statusCode, 200);
    assert.equal(events(forms, 'webhook_failed')[0]?.reason, 'timeout');
  });

  it('the mail failing, the webhook getting through: 200, and the receipt is still tried', async () => {
    const forms = await start();
    forms.mailer.failWhen = (message) => message.to === OWNER_ADDRESS;
    assert.equal((await post(forms)).statusCode, 200);
    assert.equal(receiver.requests.length, 1);
    assert.deepEqual(forms.mailer.sent.map((message) => message.to), [ADA.email]);
    const after = await counters(forms);
    assert.deepEqual([after.sent, after.send_failed], [0, 0]);
  });

  it('mail and webhook failing, no Telegram: 500 send_failed, no receipt', async () => {
    const forms = await start();
    forms.mailer.failWhen = () => true;
    receiver.answer = 502;
    const response = await post(forms);
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().error, 'send_failed');
    assert.equal((await counters(forms)).send_failed, 1);
    assert.deepEqual(forms.mailer.refused.map((message) => message.to), [OWNER_ADDRESS], 'no receipt after a failed delivery');
  });

  it('with Telegram as well: delivered when any one of the three got through, send_failed only when none did', async () => {
    const forms = await start({}, { telegram: { bot_token: '1:T', chat_id: 1, api_url: telegram.url } });
    forms.mailer.failWhen = (message) => message.to === OWNER_ADDRESS;
    telegram.answer = { status: 500 };
    assert.equal((await post(forms)).statusCode, 200, 'the webhook alone');
    receiver.answer = 500;
    telegram.answer = 'ok';
    assert.equal((await post(forms)).statusCode, 200, 'Telegram alone');
    telegram.answer = { status: 500 };
    assert.equal((await post(forms)).statusCode, 500, 'none');
    const after = await counters(forms);
    assert.deepEqual([after.send_failed, after.telegram_failed], [1, 2]);
  });

  it('slack and discord shapes go out unsigned', async () => {
    for (const format of ['slack', 'discord'] as const) {
      receiver.requests.length = 0;
      const forms = await start({ format, secret: undefined });
      assert.equal((await post(forms)).statusCode, 200);
      const body = JSON.parse(receiver.requests[0]?.body ?? '{}') as Record<string, unknown>;
      assert.match(String(format === 'slack' ? body.text : body.content), /Email: ada@example\.org/);
      assert.equal(receiver.requests[0]?.headers['webhook-signature'], undefined);
    }
  });

  it('neither the URL nor the secret nor the submission appears in any log line', () => {
    const text = open.map((forms) => forms.logs.text()).join('\n');
    assert.ok(text.includes('webhook_failed') && text.includes('webhook_sent'));
    for (const secret of ['SECRET-PATH', SECRET.slice(6), '127.0.0.1:', 'ada@example.org', 'Lovelace']) assert.ok(!text.includes(secret), secret);
  });
});
