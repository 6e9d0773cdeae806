// A post sent to 1,000 confirmed subscribers by the real `postbox newsletter send` and `postbox serve`, into a real
// SMTP server (docs/newsletter.md "Sending a post"). In the middle of the send, 100 subscribers unsubscribe by
// RFC 8058 one-click POST and the service is killed (SIGKILL) while mails are in flight; after a restart every
// other subscriber has exactly one mail, with a working unsubscribe link, both list headers and both parts, and
// the 100 have none.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createUnsubscribeToken } from '../../src/newsletter/unsubscribe-token.js';
import { writeConfigFile } from '../support/config.js';
import { runPostbox, startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { startSmtpServer, type ReceivedMessage } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const SUBSCRIBERS = 1_000;
const HOLD_AFTER = 200;
const PUBLIC_URL = 'https://forms.example.com';

function subscribedLine(email: string): string {
  return `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
}

function header(message: ReceivedMessage, name: string): string {
  const value = message.parsed.headerLines.find((line) => line.key === name.toLowerCase());
  return value ? value.line.slice(value.line.indexOf(':') + 1).trim() : '';
}

describe('postbox newsletter send, with unsubscribes and a SIGKILL in the middle', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('mails every remaining subscriber exactly once', async () => {
    const temp = await createTempDir('newsletter-send');
    cleanups.push(() => temp.remove());
    // Mails past the 200th are held unanswered: the send is in the middle, with mails in flight.
    const held: Array<(accept: boolean) => void> = [];
    let holding = true;
    const smtp = await startSmtpServer({
      beforeAccept: async () => (holding && smtp.received.length >= HOLD_AFTER ? new Promise<boolean>((resolve) => held.push(resolve)) : true),
    });
    cleanups.push(() => smtp.close());

    const addresses = Array.from({ length: SUBSCRIBERS }, (_, index) => `reader${index}@example.org`);
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(path.join(temp.dir, 'posts'), { recursive: true });
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), addresses.map(subscribedLine).join(''));
    await writeFile(
      path.join(temp.dir, 'posts', 'spring-news.md'),
      '+++\ntitle = "Spring news"\ndate = 2026-03-01\n+++\n\nThe garden is [open again](/garden) and ![a tulip](https://img.example.com/tulip.jpg) is out.\n',
    );
    const configFile = await writeConfigFile(temp.dir, {
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0', public_url: PUBLIC_URL },
      mail: { transport: 'smtp', from: 'News <news@example.com>', to: 'owner@example.com', send_per_minute: 0, smtp: { host: '127.0.0.1', port: smtp.port } },
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' }],
      site: { title: 'The Garden', base_url: 'https://example.com' },
      blog: { listen: '127.0.0.1:0', content_dir: path.join(temp.dir, 'posts'), post_url: '/blog/{slug}' },
    });

    const first: ServeProcess = await startPostboxServe(configFile, ['forms', 'blog']);
    cleanups.unshift(() => first.stop('SIGKILL'));
    const command = runPostbox(['newsletter', 'send', '--config', configFile, '--form', '/newsletter', '--post', 'spring-news'], { timeoutMs: 120_000 });
    await waitFor('the send to reach its middle', () => (held.length > 0 ? true : undefined), 60_000);

    // 100 subscribers not reached yet leave by one-click POST (RFC 8058), as a mail client would.
    const secret = await readFile(path.join(dataDir, 'newsletter-secret'));
    const leaving = addresses.filter((_, index) => index >= 500 && index % 5 === 0);
    assert.equal(leaving.length, 100);
    for (const email of leaving) {
      const token = createUnsubscribeToken(secret, '/newsletter', email);
      const response = await fetch(`${first.addresses.forms}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(response.status, 200);
    }

    assert.deepEqual(await first.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
    holding = false;
    for (const release of held.splice(0)) release(false);
    const second = await startPostboxServe(configFile, ['forms', 'blog']);
    cleanups.unshift(() => second.stop());

    const result = await command;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /finished: sent 900, failed 0, skipped 100\n$/);

    const mailsTo = new Map<string, ReceivedMessage[]>();
    for (const message of smtp.received) {
      for (const recipient of message.recipients) mailsTo.set(recipient, [...(mailsTo.get(recipient) ?? []), message]);
    }
    const gone = new Set(leaving);
    for (const email of addresses) assert.equal(mailsTo.get(email)?.length ?? 0, gone.has(email) ? 0 : 1, email);
    assert.equal(smtp.received.length, 900);

    const sample = mailsTo.get('reader7@example.org')![0]!;
    assert.equal(sample.parsed.subject, 'Spring news');
    assert.equal(header(sample, 'Precedence'), 'bulk');
    assert.equal(header(sample, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    const listUnsubscribe = header(sample, 'List-Unsubscribe');
    const link = /^<(https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=[^>]+)>$/.exec(listUnsubscribe)?.[1];
    assert.ok(link, listUnsubscribe);
    assert.ok(sample.parsed.text?.includes(link), 'the link is in the text part');
    assert.match(String(sample.parsed.html), /href="https:\/\/example\.com\/garden"/);
    assert.match(String(sample.parsed.html), /src="https:\/\/img\.example\.com\/tulip\.jpg"/);

    // The link works: a one-click POST takes the address off the list.
    const unsubscribe = await fetch(link.replace(PUBLIC_URL, second.addresses.forms!), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(unsubscribe.status, 200);
    const log = await readFile(path.join(dataDir, 'subscribers.jsonl'), 'utf8');
    assert.match(log, /\{"event":"unsubscribed","email":"reader7@example\.org"/);

    const listed = await runPostbox(['newsletter', 'list', '--config', configFile]);
    assert.match(listed.stdout, /\/newsletter {2}spring-news \(en\) {2}finished: sent 900 · failed 0 · skipped 100 · left 0 of 1000/);
    const again = await runPostbox(['newsletter', 'send', '--config', configFile, '--form', '/newsletter', '--post', 'spring-news']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /was sent to \/newsletter in en already \(campaign \d{8}T\d{6}Z-[0-9a-f]{4}\); pass --resend/);
  });
});
