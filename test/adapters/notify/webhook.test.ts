// The webhook adapter against a local receiver: the signed json shape verified with the Standard Webhooks
// library as a receiver would, the Slack and Discord shapes, and every kind of failure.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createWebhookNotifier, DISCORD_CONTENT_LIMIT, WebhookError } from '../../../src/adapters/notify/webhook.js';
import type { WebhookEvent } from '../../../src/ports.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=';
const EVENT: WebhookEvent = {
  id: 'msg_2b7f0c1e9a',
  form: '/contact',
  type: 'contact',
  received_at: '2024-05-01T12:00:00.000Z',
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  service: 'Hosting',
  message: 'Hello!\nI would like a website.',
};

describe('createWebhookNotifier', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.answer = 204;
  });

  describe('format = "json"', () => {
    it('POSTs the fields, signed by Standard Webhooks: the receiver library verifies it', async () => {
      await createWebhookNotifier({ url: receiver.url(), format: 'json', secret: SECRET }).send(EVENT);
      assert.equal(receiver.requests.length, 1);
      const [request] = receiver.requests;
      assert.ok(request);
      assert.equal(request.method, 'POST');
      assert.match(request.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(request.headers['webhook-id'], EVENT.id);
      assert.match(request.headers['webhook-timestamp'] ?? '', /^\d+$/);
      assert.match(request.headers['webhook-signature'] ?? '', /^v1,[A-Za-z0-9+/]+=*$/);
      const payload = new Webhook(SECRET).verify(request.body, request.headers);
      assert.deepEqual(payload, {
        form: '/contact',
        type: 'contact',
        received_at: '2024-05-01T12:00:00.000Z',
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        service: 'Hosting',
        message: 'Hello!\nI would like a website.',
      });
      assert.deepEqual(Object.keys(payload as object), ['form', 'type', 'received_at', 'name', 'email', 'service', 'message']);
    });

    it('leaves absent fields out, and keys in order whatever order the event has', async () => {
      const { name: _name, service: _service, ...rest } = EVENT;
      const shuffled = { message: rest.message, email: rest.email, received_at: rest.received_at, type: rest.type, form: rest.form, id: rest.id };
      await createWebhookNotifier({ url: receiver.url(), format: 'json', secret: SECRET }).send(shuffled);
      assert.equal(receiver.requests[0]?.body, '{"form":"/contact","type":"contact","received_at":"2024-05-01T12:00:00.000Z","email":"ada@example.org","message":"Hello!\\nI would like a website."}');
    });

    it('a changed body, another secret or an old timestamp does not verify', async () => {
      await createWebhookNotifier({ url: receiver.url(), format: 'json', secret: SECRET }).send(EVENT);
      const [request] = receiver.requests;
      assert.ok(request);
      assert.throws(() => new Webhook(SECRET).verify(request.body.replace('Ada', 'Eve'), request.headers), /No matching signature/);
      assert.throws(() => new Webhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=').verify(request.body, request.headers), /No matching signature/);
      await createWebhookNotifier({ url: receiver.url(), format: 'json', secret: SECRET }, { clock: () => Date.now() - 3_600_000 }).send(EVENT);
      assert.throws(() => new Webhook(SECRET).verify(receiver.requests[1]?.body ?? '', receiver.requests[1]?.headers ?? {}), /too old/);
    });

    it('signs each attempt at its own time with the same webhook-id, so a receiver can drop the duplicate', async () => {
      let now = Date.now() - 120_000;
      const notifier = createWebhookNotifier({ url: receiver.url(), format: 'json', secret: SECRET }, { clock: () => now });
      await notifier.send(EVENT);
      now += 60_000;
      await notifier.send(EVENT);
      const [first, second] = receiver.requests;
      assert.equal(first?.headers['webhook-id'], second?.headers['webhook-id']);
      assert.equal(Number(second?.headers['webhook-timestamp']) - Number(first?.headers['webhook-timestamp']), 60);
      assert.equal(first?.body, second?.body);
      for (const request of [first, second]) assert.ok(new Webhook(SECRET).verify(request?.body ?? '', request?.headers ?? {}));
    });
  });

  describe('format = "slack" and "discord"', () => {
    it('slack: {"text"} with the fields as plain text; <, > and & cannot make links or mentions', async () => {
      await createWebhookNotifier({ url: receiver.url(), format: 'slack' }).send({ ...EVENT, message: 'Hi <!channel> & <https://evil.example|your bank>' });
      const [request] = receiver.requests;
      assert.equal(request?.headers['webhook-signature'], undefined, 'unsigned');
      const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['text']);
      const text = String(body.text);
      for (const line of ['New contact form submission on /contact', 'Name: Ada Lovelace', 'Email: ada@example.org', 'Service: Hosting', 'Received: 2024-05-01T12:00:00.000Z']) {
        assert.ok(text.includes(line), line);
      }
      assert.ok(text.endsWith('Message:\nHi &lt;!channel&gt; &amp; &lt;https://evil.example|your bank&gt;'), text);
    });

    it('discord: {"content"} as plain text that pings nobody and renders no Markdown', async () => {
      await createWebhookNotifier({ url: receiver.url(), format: 'discord' }).send({ ...EVENT, name: 'Ada_Lovelace', message: '@everyone see [your bank](https://evil.example)\n# Big\n> quote ||spoiler|| **bold** `code` ~~x~~ \\' });
      const body = JSON.parse(receiver.requests[0]?.body ?? '{}') as { content: string; allowed_mentions: unknown };
      assert.deepEqual(Object.keys(body), ['content', 'allowed_mentions']);
      assert.deepEqual(body.allowed_mentions, { parse: [] });
      assert.ok(body.content.includes('Name: Ada\\_Lovelace'), body.content);
      assert.ok(body.content.includes('Email: ada@example.org'));
      assert.ok(
        body.content.endsWith('Message:\n@everyone see \\[your bank\\]\\(https://evil.example\\)\n\\# Big\n\\> quote \\|\\|spoiler\\|\\| \\*\\*bold\\*\\* \\`code\\` \\~\\~x\\~\\~ \\\\'),
        body.content,
      );
    });

    it('discord: a long message is cut to the 2,000-character limit, never inside a character or an escape', async () => {
      const notifier = createWebhookNotifier({ url: receiver.url(), format: 'discord' });
      // Escaped, '*' doubles; one of the last two puts a backslash just before the cut, whatever the length before.
      for (const message of ['a'.repeat(3000), '😀'.repeat(3000), '*'.repeat(3000), `x${'*'.repeat(3000)}`]) {
        receiver.requests.length = 0;
        await notifier.send({ ...EVENT, message });
        const { content } = JSON.parse(receiver.requests[0]?.body ?? '{}') as { content: string };
        const filler = message.slice(0, 2);
        assert.ok(content.length <= DISCORD_CONTENT_LIMIT, `${filler}: ${content.length}`);
        assert.ok(content.length >= DISCORD_CONTENT_LIMIT - 2, `${filler}: cut at the limit, not before`);
        assert.ok(content.endsWith('…'));
        assert.doesNotMatch(content, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no lone high surrogate');
        assert.doesNotMatch(content, /(?<!\\)(?:\\\\)*\\…$/, 'no backslash left to escape the ellipsis');
      }
    });
  });

  describe('failures', () => {
    const settings = () => ({ url: receiver.url('/hooks/T0-SECRET-PATH'), format: 'json' as const, secret: SECRET });

    for (const status of [500, 404, 429]) {
      it(`rejects an HTTP ${status} answer with reason http_${status}, never naming the URL`, async () => {
        receiver.answer = status;
        const error = await createWebhookNotifier(settings()).send(EVENT).then(() => undefined, (caught: unknown) => caught);
        assert.ok(error instanceof WebhookError);
        assert.equal(error.reason, `http_${status}`);
        assert.ok(!String(error.message).includes('SECRET') && !String(error.stack).includes('SECRET'));
      });
    }

    it('does not follow a redirect: a 302 is a failure, and nothing is posted elsewhere', async () => {
      receiver.answer = 302;
      await assert.rejects(createWebhookNotifier(settings()).send(EVENT), (error: unknown) => error instanceof WebhookError && error.reason === 'http_302');
      assert.deepEqual(receiver.requests.map((request) => request.path), ['/hooks/T0-SECRET-PATH']);
    });

    it('rejects with "timeout" when the receiver does not answer in time', async () => {
      receiver.answer = 'hang';
      const notifier = createWebhookNotifier(settings(), { timeoutMs: 200 });
      await assert.rejects(notifier.send(EVENT), (error: unknown) => error instanceof WebhookError && error.reason === 'timeout');
    });

    it('rejects with "network" when nothing listens', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const notifier = createWebhookNotifier({ url: `http://127.0.0.1:${port}/SECRET`, format: 'slack' });
      const error = await notifier.send(EVENT).then(() => undefined, (caught: unknown) => caught);
      assert.ok(error instanceof WebhookError);
      assert.equal(error.reason, 'network');
      assert.ok(!String(error.stack).includes('SECRET'));
    });
  });
});
