// Two real `postbox serve` replicas on one PostgreSQL (docs/newsletter.md "With PostgreSQL and several replicas"),
// each with its own data_dir, and a post sent by the real `postbox newsletter send` into a real SMTP server: the
// campaign is sent once, not once per replica. The replica sending it is killed (SIGKILL) in the middle; the other
// takes the campaign over once its lease lapsed and goes on after the last journaled recipient: every subscriber has
// exactly one mail.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import pg from 'pg';
import { writeConfigFile } from '../support/config.js';
import { runPostbox, startPostboxServe } from '../support/postbox-process.js';
import { startPostgresServer } from '../support/postgres-server.js';
import { startSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const SUBSCRIBERS = 300;
const HOLD_AFTER = 100;

function subscribedLine(email: string): string {
  return `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
}

describe('postbox newsletter send with two serve replicas on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('mails every subscriber exactly once, the second replica finishing what the killed one started', async () => {
    const temp = await createTempDir('newsletter-replicas');
    cleanups.push(() => temp.remove());
    const postgres = await startPostgresServer();
    cleanups.unshift(() => postgres.close());
    const url = await postgres.createDatabase('replicas');
    // Mails past the 100th are held unanswered: the send is in the middle, a mail in flight.
    const held: Array<(accept: boolean) => void> = [];
    let holding = true;
    const smtp = await startSmtpServer({
      beforeAccept: async () => (holding && smtp.received.length >= HOLD_AFTER ? new Promise<boolean>((resolve) => held.push(resolve)) : true),
    });
    cleanups.unshift(() => smtp.close());

    const addresses = Array.from({ length: SUBSCRIBERS }, (_, index) => `reader${index}@example.org`);
    await mkdir(path.join(temp.dir, 'posts'));
    await writeFile(path.join(temp.dir, 'posts', 'spring-news.md'), '+++\ntitle = "Spring news"\ndate = 2026-03-01\n+++\n\nThe garden is open again.\n');
    const configs: string[] = [];
    for (const name of ['a', 'b']) {
      // Each replica its own data_dir; the subscribers come from the first one's log, copied by `migrate --from-files`.
      const dataDir = path.join(temp.dir, `data-${name}`);
      await mkdir(dataDir);
      if (name === 'a') await writeFile(path.join(dataDir, 'subscribers.jsonl'), addresses.map(subscribedLine).join(''));
      configs.push(
        await writeConfigFile(
          temp.dir,
          {
            data_dir: dataDir,
            server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
            state: { backend: 'postgres', url },
            mail: { transport: 'smtp', from: 'News <news@example.com>', to: 'owner@example.com', send_per_minute: 0, smtp: { host: '127.0.0.1', port: smtp.port } },
            forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' }],
            site: { title: 'The Garden', base_url: 'https://example.com' },
            blog: { listen: '127.0.0.1:0', content_dir: path.join(temp.dir, 'posts'), post_url: '/blog/{slug}' },
          },
          `config-${name}.toml`,
        ),
      );
    }
    const migrated = await runPostbox(['migrate', '--from-files', '--config', configs[0]!]);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, new RegExp(`^newsletter records: copied ${SUBSCRIBERS}, `, 'm'));
    const replicas = [await startPostboxServe(configs[0]!, ['forms', 'blog']), await startPostboxServe(configs[1]!, ['forms', 'blog'])];
    for (const replica of replicas) cleanups.unshift(() => replica.stop('SIGKILL'));

    const command = runPostbox(['newsletter', 'send', '--config', configs[0]!, '--form', '/newsletter', '--post', 'spring-news'], { timeoutMs: 150_000 });
    await waitFor('the send to reach its middle', () => (held.length > 0 ? true : undefined), 60_000);

    // The replica holding the campaign's lease is the one sending it; the other has sent nothing.
    const client = new pg.Client(url);
    await client.connect();
    const runner = (await client.query<{ runner: string }>('SELECT runner FROM campaigns')).rows[0]!.runner;
    await client.end();
    const sending = replicas.findIndex((replica) => runner.startsWith(`${hostname()}:${replica.child.pid}:`));
    assert.notEqual(sending, -1, runner);
    const survivor = replicas[1 - sending]!;
    assert.ok(!survivor.logs.some((line) => line.event === 'campaign_started'), 'the other replica waits');

    assert.deepEqual(await replicas[sending]!.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
    holding = false;
    for (const release of held.splice(0)) release(false);
    const started = await survivor.waitForLog('the other replica to take the campaign over', (line) => line.event === 'campaign_started', { timeoutMs: 90_000 });
    assert.ok(Number(started.from) >= HOLD_AFTER, `goes on after the last journaled recipient (from ${String(started.from)})`);

    const result = await command;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`finished: sent ${SUBSCRIBERS}, failed 0, skipped 0\\n$`));
    const mailsTo = new Map<string, number>();
    for (const message of smtp.received) for (const recipient of message.recipients) mailsTo.set(recipient, (mailsTo.get(recipient) ?? 0) + 1);
    for (const email of addresses) assert.equal(mailsTo.get(email), 1, email);
    assert.equal(smtp.received.length, SUBSCRIBERS);

    const listed = await runPostbox(['newsletter', 'list', '--config', configs[1]!]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /\/newsletter {2}spring-news \(en\) {2}finished: sent 300 · failed 0 · skipped 0 · left 0 of 300/);
  });
});
