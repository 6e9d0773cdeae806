// The Telegram adapter against a local fake Bot API: what it sends, and every kind of failure.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTelegramNotifier, TELEGRAM_TEXT_LIMIT, TelegramError } from '../../../src/adapters/notify/telegram.js';
import { startFakeTelegram, type FakeTelegram } from '../../support/fake-telegram.js';

const TOKEN = '123456:SECRET-bot-token';

describe('createTelegramNotifier', () => {
  let telegram: FakeTelegram;
  before(async () => {
    telegram = await startFakeTelegram();
  });
  after(() => telegram.close());
  beforeEach(() => {
    telegram.calls.length = 0;
    telegram.answer = 'ok';
  });

  it('POSTs {chat_id, text} as JSON to <api_url>/bot<token>/sendMessage', async () => {
    const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '-100200', apiUrl: `${telegram.url}/` });
    await notifier.send('New contact form submission\nName: Ada');
    assert.equal(telegram.calls.length, 1);
    assert.equal(telegram.calls[0]?.path, `/bot${TOKEN}/sendMessage`);
    assert.equal(telegram.calls[0]?.body.chat_id, '-100200');
    assert.equal(telegram.calls[0]?.body.text, 'New contact form submission\nName: Ada');
    assert.equal(telegram.calls[0]?.body.parse_mode, undefined, 'plain text: nothing in it is markup');
  });

  it('cuts texts past the API limit without splitting a character', async () => {
    const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '1', apiUrl: telegram.url });
    await notifier.send(`${'a'.repeat(TELEGRAM_TEXT_LIMIT - 2)}😀😀😀`);
    const text = String(telegram.calls[0]?.body.text);
    assert.ok(text.length <= TELEGRAM_TEXT_LIMIT);
    assert.ok(text.endsWith('…'));
    assert.doesNotMatch(text, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no lone high surrogate');
  });

  const failures: Array<[string, FakeTelegram['answer'], string]> = [
    ['HTTP 500', { status: 500 }, 'http_500'],
    ['HTTP 401', { status: 401 }, 'http_401'],
    ['{"ok":false} with status 200', 'not_ok', 'not_ok'],
  ];
  for (const [why, answer, reason] of failures) {
    it(`rejects on ${why} with a reason that does not carry the token`, async () => {
      telegram.answer = answer;
      const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '1', apiUrl: telegram.url });
      const error = await notifier.send('hello').then(() => undefined, (caught: unknown) => caught);
      assert.ok(error instanceof TelegramError);
      assert.equal(error.reason, reason);
      assert.ok(!String(error.message).includes('SECRET') && !String(error.stack).includes('SECRET'));
    });
  }

  it('rejects with "timeout" when the API does not answer in time', async () => {
    telegram.answer = 'hang';
    const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '1', apiUrl: telegram.url }, { timeoutMs: 200 });
    await assert.rejects(notifier.send('hello'), (error: unknown) => error instanceof TelegramError && error.reason === 'timeout');
  });

  it('rejects with "network" when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '1', apiUrl: `http://127.0.0.1:${port}` });
    await assert.rejects(notifier.send('hello'), (error: unknown) => error instanceof TelegramError && error.reason === 'network');
  });

  it('rejects with "not_ok" when a 2xx answer is not JSON', async () => {
    const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const notifier = createTelegramNotifier({ botToken: TOKEN, chatId: '1', apiUrl: `http://127.0.0.1:${port}` });
      await assert.rejects(notifier.send('hello'), (error: unknown) => error instanceof TelegramError && error.reason === 'not_ok');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
