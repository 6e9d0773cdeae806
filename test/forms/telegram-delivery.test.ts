// A form with [forms.telegram] delivering through the real Telegram adapter to a local fake Bot API.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { contactForm, createTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };
const TOKEN = '987654:TOP-SECRET-TOKEN';

describe('Telegram notifications through the service', () => {
  let telegram: FakeTelegram;
  let forms: TestFormsService;
  before(async () => {
    telegram = await startFakeTelegram();
    forms = await createTestFormsService({
      forms: [contactForm({ rate_limit_per_hour: 0, telegram: { bot_token: TOKEN, chat_id: 4242, api_url: telegram.url } })],
    });
  });
  after(async () => {
    await forms.close();
    await telegram.close();
  });
  beforeEach(() => {
    telegram.calls.length = 0;
    telegram.answer = 'ok';
    forms.mailer.failWhen = () => false;
  });

  const post = () =>
    forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ADA) });
  const counters = async () => (await forms.metrics()).forms['/contact'] as Record<string, number>;

  it('sends the fields to the configured chat beside the mail', async () => {
    assert.equal((await post()).statusCode, 200);
    assert.equal(telegram.calls.length, 1);
    assert.equal(telegram.calls[0]?.path, `/bot${TOKEN}/sendMessage`);
    assert.equal(telegram.calls[0]?.body.chat_id, '4242');
    for (const value of Object.values(ADA)) assert.ok(String(telegram.calls[0]?.body.text).includes(value));
  });

  for (const answer of [{ status: 500 }, 'not_ok'] as const) {
    it(`Telegram answering ${JSON.stringify(answer)}: still 200 through the mail, telegram_failed counted`, async () => {
      const before = await counters();
      telegram.answer = answer;
      assert.equal((await post()).statusCode, 200);
      const after = await counters();
      assert.equal(after.telegram_failed, (before.telegram_failed ?? 0) + 1);
      assert.equal(after.sent, (before.sent ?? 0) + 1);
    });
  }

  it('the mail failing, Telegram getting through: 200', async () => {
    forms.mailer.failWhen = (message) => message.to === 'owner@example.com';
    assert.equal((await post()).statusCode, 200);
    assert.equal(telegram.calls.length, 1);
  });

  it('both failing: 500 send_failed', async () => {
    const before = await counters();
    forms.mailer.failWhen = () => true;
    telegram.answer = { status: 502 };
    const response = await post();
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().error, 'send_failed');
    assert.equal((await counters()).send_failed, (before.send_failed ?? 0) + 1);
  });

  it('the bot token appears in no log line', () => {
    assert.ok(!forms.logs.text().includes('TOP-SECRET-TOKEN'));
    assert.ok(forms.logs.lines().some((line) => line.event === 'telegram_failed'));
  });
});
