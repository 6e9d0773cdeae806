// The queue with every channel: a Telegram message and a Standard Webhooks POST that fail for a while are
// retried until they get through, the webhook with the same id every time; a 404 from a receiver is permanent;
// newsletter mails go through the queue and are counted once their server accepted them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createWebhookNotifier } from '../../../src/adapters/notify/webhook.js';
import type { WebhookConfig } from '../../../src/config/config.js';
import { startFakeTelegram, type FakeTelegram } from '../../support/fake-telegram.js';
import { contactForm, useTestFormsService } from '../../support/forms-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';
import { waitFor } from '../../support/wait.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=';

describe('the queue with Telegram, a webhook and the newsletter', () => {
  let receiver: WebhookReceiver;
  let telegram: FakeTelegram;
  before(async () => {
    receiver = await startWebhookReceiver();
    telegram = await startFakeTelegram();
  });
  after(async () => {
    await receiver.close();
    await telegram.close();
  });
  const start = useTestFormsService();

  const startWithChannels = () =>
    start({
      extra: { mail: { queue: true } },
      forms: [
        contactForm({
          rate_limit_per_hour: 0,
          telegram: { bot_token: '123:abc', chat_id: '42', api_url: telegram.url },
          webhook: { url: receiver.url('/hook'), secret: SECRET },
        }),
      ],
      deps: { createWebhookNotifier: (settings: WebhookConfig) => createWebhookNotifier(settings, { timeoutMs: 500 }) },
    });

  it('retries a failing Telegram and webhook until they get through; the webhook keeps its id', async () => {
    receiver.requests.length = 0;
    telegram.calls.length = 0;
    receiver.answer = 503;
    telegram.answer = { status: 502 };
    const forms = await startWithChannels();
    const response = await forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ADA) });
    assert.equal(response.statusCode, 200, 'answered although both chat channels are down');
    await waitFor('two failed webhook tries', () => (receiver.requests.length >= 2 ? true : undefined));
    await waitFor('two failed Telegram tries', () => (telegram.calls.length >= 2 ? true : undefined));
    receiver.answer = 204;
    telegram.answer = 'ok';
    await waitFor('the queue to empty', async () => ((await forms.metrics() as unknown as { queue: { pending: number } }).queue.pending === 0 ? true : undefined));

    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    assert.equal(ids.size, 1, 'one webhook-id across every try');
    assert.match([...ids][0] ?? '', /^msg_[0-9a-z]+_\d+$/);
    for (const request of receiver.requests) {
      assert.deepEqual(new Webhook(SECRET).verify(request.body, request.headers), { form: '/contact', type: 'contact', received_at: '2024-05-01T12:00:00.000Z', name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' });
    }
    const [owner, receipt] = forms.mailer.sent;
    assert.equal(forms.mailer.sent.length, 2);
    assert.equal(owner?.to, 'owner@example.com');
    assert.equal(receipt?.to, 'ada@example.org');
    const counters = (await forms.metrics()).totals;
    assert.equal(counters.queued, 4);
    assert.ok(counters.queue_retried! >= 4);
    assert.equal(counters.telegram_failed, 0, 'retried, not given up');
    assert.equal(counters.sent, 1);
  });

  it('gives a webhook up at once when the receiver answers 404', async () => {
    receiver.requests.length = 0;
    receiver.answer = 404;
    telegram.answer = 'ok';
    const forms = await startWithChannels();
    await forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ADA) });
    await waitFor('the webhook given up', async () => ((await forms.metrics()).totals.queue_failed === 1 ? true : undefined));
    assert.equal(receiver.requests.length, 1);
    const line = forms.logs.lines().find((entry) => entry.event === 'queue_failed');
    assert.equal(line?.channel, 'webhook');
    assert.equal(line?.reason, 'http_404');
    assert.doesNotMatch(JSON.stringify(line), /\/hook|whsec/, 'no URL, no secret');
  });

  it('sends the newsletter confirmation through the queue and counts it once its server accepted it', async () => {
    const forms = await start({
      extra: { mail: { queue: true }, server: { public_url: 'https://forms.example.com' } },
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'] }],
    });
    // The mail server is unreachable for the first try.
    let down = true;
    forms.mailer.beforeSend = () => {
      if (!down) return;
      down = false;
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    };
    const response = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: '{"email":"grace@example.org"}' });
    assert.equal(response.statusCode, 200);
    await waitFor('the confirmation mail', () => (forms.mailer.sent.length === 1 ? true : undefined));
    assert.match(forms.mailer.sent[0]?.text ?? '', /newsletter\/confirm\?token=/);
    const counters = (await forms.metrics()).forms['/newsletter']!;
    assert.equal(counters.confirmation_sent, 1);
    assert.equal(counters.queue_retried, 1);
    assert.equal(counters.send_failed, 0);
  });
});
