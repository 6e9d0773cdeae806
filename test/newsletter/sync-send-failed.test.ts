// A newsletter signup whose confirmation mail cannot be sent, through the forms service built as `postbox serve`
// builds it, over a real SMTP server that refuses the subscriber's address (docs/newsletter.md "When something
// fails"). Without the queue the mail is sent before the answer: 500 send_failed, `send_failed` counted, and the
// signup undone, so the same address signs up again at once. With the queue the answer stays the one every signup
// gets (200), whatever later becomes of the mail.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startServices, type RunningServices } from '../../src/cli/serve.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';

const ORIGIN = 'https://example.com';
const ADA = 'ada@example.org';

describe('a newsletter signup whose confirmation mail is refused', () => {
  let smtp: TestSmtpServer;
  const running: Array<{ services: RunningServices; remove: () => Promise<void> }> = [];
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(async () => {
    for (const { services, remove } of running.splice(0)) {
      await services.stop();
      await remove();
    }
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.options = { rejectRecipient: (address) => address === ADA };
  });

  async function serve(queue: boolean): Promise<{ url: string; logs: LogCapture }> {
    const temp = await createTempDir('newsletter-send-failed');
    const config = loadTestConfig(
      {
        data_dir: temp.dir,
        server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
        mail: { transport: 'smtp', queue, from: 'Example <forms@example.com>', to: 'owner@example.com', smtp: { host: '127.0.0.1', port: smtp.port, secure: false } },
        forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [ORIGIN], rate_limit_per_hour: 0 }],
      },
      temp.dir,
    );
    const logs = captureLogs();
    const services = await startServices(config, { logger: logs.logger, requestLog: logs.requestLog });
    running.push({ services, remove: temp.remove });
    return { url: services.addresses.forms!, logs };
  }

  const signUp = (url: string) =>
    fetch(`${url}/newsletter`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify({ email: ADA }) });
  const countersOf = async (url: string) =>
    ((await (await fetch(`${url}/metrics`)).json()) as { forms: Record<string, Record<string, number>> }).forms['/newsletter'] ?? {};

  it('without the queue: 500 send_failed, counted, and the same address may sign up again at once', async () => {
    const { url, logs } = await serve(false);
    const refused = await signUp(url);
    assert.equal(refused.status, 500);
    assert.equal(((await refused.json()) as { error: string }).error, 'send_failed');
    assert.equal((await countersOf(url)).send_failed, 1);
    assert.ok(logs.lines().some((line) => line.event === 'confirmation_send_failed'));
    assert.equal(smtp.received.length, 0);

    smtp.options = {};
    const again = await signUp(url);
    assert.equal(again.status, 200);
    const counters = await countersOf(url);
    assert.equal(counters.duplicate_signup ?? 0, 0, 'the failed signup left nothing behind');
    assert.equal(counters.confirmation_sent, 1);
    const [mail] = await smtp.waitForMessages(1);
    assert.deepEqual(mail?.recipients, [ADA]);
  });

  it('with the queue: the answer every signup gets, 200', async () => {
    const { url } = await serve(true);
    const response = await signUp(url);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
  });
});
