// The queue against a real SMTP server (smtp-server on loopback) that is down, then up again: every
// submission is answered 200 while it is down, and once it is back every owner mail and receipt arrives exactly
// once, without a restart. A permanent 550 goes to queue/failed/ at once, and `postbox queue retry` (the real
// CLI) sends it once the server accepts.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { composeMailCore, composeFormsService } from '../../../src/app/compose.js';
import { openBackend } from '../../../src/app/open-backend.js';
import type { Config } from '../../../src/config/config.js';
import type { HttpService } from '../../../src/http/http-service.js';
import { createSmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import { loadTestConfig, writeConfigFile } from '../../support/config.js';
import { driveService } from '../../support/http.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { runPostbox } from '../../support/postbox-process.js';
import { findFreePort, isAddressedTo, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const OWNER = 'owner@example.com';
const FAST = { firstDelayMs: 50, maxDelayMs: 200, maxAgeMs: 3_600_000 };

interface Running {
  service: HttpService;
  config: Config;
  configFile: string;
  logs: LogCapture;
  close(): Promise<void>;
}

describe('the mail queue and a real SMTP server', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startForms(smtpPort: number): Promise<Running> {
    const temp = await createTempDir('queue-smtp');
    const table = {
      data_dir: temp.dir,
      mail: { transport: 'smtp', from: 'Forms <forms@example.com>', to: OWNER, smtp: { host: '127.0.0.1', port: smtpPort } },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 }],
    };
    const config = loadTestConfig(table, temp.dir);
    assert.equal(config.mail?.transport, 'smtp');
    assert.equal(config.mail?.queue, true, 'the queue is on by default');
    const logs = captureLogs();
    const mailer = createSmtpMailer((config.mail as Extract<Config['mail'], { transport: 'smtp' }>).smtp);
    const backend = openBackend(config, logs.logger);
    // The production parts, with retries a few milliseconds apart instead of a minute.
    const parts = { logger: logs.logger, requestLog: logs.requestLog, clock: Date.now, mailer };
    const core = await composeMailCore(config, config.mail!, backend, { ...parts, queue: { policy: FAST, pollIntervalMs: 50 } });
    const service = await composeFormsService(config, config.mail!, backend, core, parts);
    const running: Running = {
      service,
      config,
      configFile: await writeConfigFile(temp.dir, table),
      logs,
      async close() {
        await service.close();
        await core.close();
        await backend.close();
        await mailer.close();
        await temp.remove();
      },
    };
    cleanups.push(() => running.close());
    return running;
  }

  const submit = (service: HttpService, name: string) =>
    driveService(service).inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/json', origin: 'https://example.com' },
      payload: { name, email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.org`, message: `A message from ${name}.` },
    });

  async function metricsOf(service: HttpService) {
    return (await driveService(service).inject({ method: 'GET', url: '/metrics' })).json() as { totals: Record<string, number>; queue: { pending: number; failed: number; fsyncs: number } };
  }

  it('answers 50 submissions 200 while the server is down, and delivers each mail exactly once when it is back', async () => {
    const port = await findFreePort();
    const forms = await startForms(port);
    const names = Array.from({ length: 50 }, (_, index) => `Sender ${index + 1}`);
    const responses = await Promise.all(names.map((name) => submit(forms.service, name)));
    assert.deepEqual(new Set(responses.map((response) => response.statusCode)), new Set([200]));
    await waitFor('a failed try of every message', async () => ((await metricsOf(forms.service)).totals.queue_retried! >= 100 ? true : undefined));
    assert.equal((await metricsOf(forms.service)).totals.queued, 100);

    const smtp: TestSmtpServer = await startSmtpServer({ port });
    // Closed last: it waits for the pooled connections, which the forms service's close ends.
    cleanups.unshift(() => smtp.close());
    await waitFor('the queue to empty', async () => ((await metricsOf(forms.service)).queue.pending === 0 ? true : undefined), 30_000);
    assert.equal(smtp.received.length, 100, 'each message once');
    const ownerMails = smtp.received.filter((message) => isAddressedTo(message, OWNER));
    const receipts = smtp.received.filter((message) => !isAddressedTo(message, OWNER));
    assert.deepEqual(ownerMails.map((message) => message.parsed.subject?.replace('New contact form submission from ', '')).sort(), [...names].sort());
    assert.deepEqual(receipts.map((message) => message.recipients[0]).sort(), names.map((name) => `${name.toLowerCase().replace(/\s+/g, '.')}@example.org`).sort());
    const metrics = await metricsOf(forms.service);
    assert.equal(metrics.totals.sent, 50);
    assert.equal(metrics.totals.send_failed, 0);
    assert.equal(metrics.queue.pending, 0);
    assert.equal(metrics.queue.failed, 0);
    // Two fsyncs per write, and the 50 concurrent submissions shared writes (group commit).
    assert.ok(metrics.queue.fsyncs >= 2 && metrics.queue.fsyncs < 100, `${metrics.queue.fsyncs} fsyncs for 50 submissions`);
    // The log names the server and the network error, never an address.
    const retry = forms.logs.lines().find((line) => line.event === 'queue_retry');
    assert.equal(retry?.server, `127.0.0.1:${port}`);
    assert.match(String(retry?.reason), /^E[A-Z]+$/);
    assert.doesNotMatch(forms.logs.text(), /example\.org/);
  });

  it('moves a message the server refuses with 550 to failed/ at once, and `postbox queue retry` sends it once', async () => {
    const smtp = await startSmtpServer({ rejectRecipient: (address) => address === OWNER });
    cleanups.push(() => smtp.close());
    const forms = await startForms(smtp.port);
    assert.equal((await submit(forms.service, 'Ada Lovelace')).statusCode, 200);
    // Both the failed/ file (which a rescan may count first) and the counters of the give-up.
    await waitFor('the owner mail given up', async () => {
      const now = await metricsOf(forms.service);
      return now.queue.failed === 1 && now.totals.queue_failed === 1 ? true : undefined;
    });
    const metrics = await metricsOf(forms.service);
    assert.equal(metrics.totals.queue_failed, 1);
    assert.equal(metrics.totals.send_failed, 1, 'the owner mail was given up');
    assert.equal(metrics.totals.queue_retried, 0, 'not retried: 5xx is permanent');
    await waitFor('the receipt', () => (smtp.received.length === 1 ? true : undefined));
    const givenUp = forms.logs.lines().find((line) => line.event === 'queue_failed');
    assert.equal(givenUp?.reason, 'smtp_550');
    assert.equal(givenUp?.level, 50, 'an error line');

    const listed = await runPostbox(['queue', 'list', '--config', forms.configFile]);
    assert.equal(listed.code, 0, listed.stderr);
    const id = /^(msg_\S+)\s+failed\s+mail\/owner\s+\/contact/m.exec(listed.stdout)?.[1];
    assert.ok(id, listed.stdout);
    assert.match(listed.stdout, /smtp_550: 550 Recipient refused by test server/);
    assert.doesNotMatch(listed.stdout, /@/, 'the listing names no address');

    smtp.options = {};
    const retried = await runPostbox(['queue', 'retry', id, '--config', forms.configFile]);
    assert.equal(retried.code, 0, retried.stderr);
    const ownerMail = await smtp.waitForMessage('the owner mail after the retry', (message) => isAddressedTo(message, OWNER));
    assert.equal(ownerMail.parsed.subject, 'New contact form submission from Ada Lovelace');
    await waitFor('the queue to settle', async () => {
      const { queue } = await metricsOf(forms.service);
      return queue.pending === 0 && queue.failed === 0 ? true : undefined;
    });
    assert.equal(smtp.received.filter((message) => isAddressedTo(message, OWNER)).length, 1, 'sent once');
    assert.equal((await runPostbox(['queue', 'retry', id, '--config', forms.configFile])).code, 1, 'nothing left to retry');
  });
});
