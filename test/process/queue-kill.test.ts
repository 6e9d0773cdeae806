// The queue survives a SIGKILL (docs/delivery.md "What 200 means"): the real `postbox serve` answers 50
// submissions 200 while the SMTP server is down and is killed; once the server is back, a new process sends
// every owner mail and receipt exactly once.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { findFreePort, isAddressedTo, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const OWNER = 'owner@example.com';

describe('postbox serve, the queue and a SIGKILL', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('sends every message queued before the kill exactly once after a restart', async () => {
    const temp = await createTempDir('queue-kill');
    cleanups.push(() => temp.remove());
    const smtpPort = await findFreePort();
    const configFile = await writeConfigFile(temp.dir, {
      data_dir: temp.dir,
      server: { listen: '127.0.0.1:0' },
      mail: { transport: 'smtp', from: 'Forms <forms@example.com>', to: OWNER, smtp: { host: '127.0.0.1', port: smtpPort } },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 }],
    });

    const first: ServeProcess = await startPostboxServe(configFile);
    cleanups.unshift(() => first.stop('SIGKILL'));
    const names = Array.from({ length: 50 }, (_, index) => `Sender ${index + 1}`);
    const statuses = await Promise.all(
      names.map(async (name) => {
        const response = await fetch(`${first.addresses.forms}/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, email: `sender${name.split(' ')[1]}@example.org`, message: `A message from ${name}.` }),
        });
        return response.status;
      }),
    );
    assert.deepEqual(new Set(statuses), new Set([200]));
    assert.deepEqual(await first.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });

    const smtp: TestSmtpServer = await startSmtpServer({ port: smtpPort });
    const second = await startPostboxServe(configFile);
    cleanups.unshift(() => second.stop());
    cleanups.push(() => smtp.close());
    await smtp.waitForMessages(100, 30_000);
    await waitFor('the queue to empty', async () => {
      const metrics = (await (await fetch(`${second.addresses.forms}/metrics`)).json()) as { queue: { pending: number } };
      return metrics.queue.pending === 0 ? true : undefined;
    });
    assert.equal(smtp.received.length, 100, 'each message once');
    const owners = smtp.received.filter((message) => isAddressedTo(message, OWNER)).map((message) => message.parsed.subject);
    assert.deepEqual(owners.sort(), names.map((name) => `New contact form submission from ${name}`).sort());
    const receipts = smtp.received.filter((message) => !isAddressedTo(message, OWNER)).map((message) => message.recipients[0]);
    assert.equal(new Set(receipts).size, 50);
  });
});
