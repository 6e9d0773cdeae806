// `postbox check --send-test-mail [--to ADDRESS]` as a real process against a real SMTP server on loopback: the
// mail arrives; a refusing server's reply, or a closed port's network error, is printed with host and port.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { writeConfigFile, type TomlTable } from '../support/config.js';
import { runPostbox } from '../support/postbox-process.js';
import { isAddressedTo, rawHeaderValues, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';

const FORM = { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] };

function configWith(dataDir: string, mail: TomlTable): TomlTable {
  return { data_dir: dataDir, mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com', ...mail }, forms: [FORM] };
}

/** A loopback port nothing listens on: bound once to learn a free number, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('postbox check --send-test-mail', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let smtp: TestSmtpServer;
  let smtpConfig: string;
  before(async () => {
    temp = await createTempDir('test-mail');
    smtp = await startSmtpServer();
    smtpConfig = await writeConfigFile(temp.dir, configWith(path.join(temp.dir, 'data'), { smtp: { host: '127.0.0.1', port: smtp.port } }), 'smtp.toml');
  });
  after(async () => {
    await smtp.close();
    await temp.remove();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.options = {};
  });

  it('sends one mail to mail.to now, prints that the server accepted it, exit 0', async () => {
    const result = await runPostbox(['check', '--send-test-mail', '--config', smtpConfig]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /: OK\n/);
    assert.ok(result.stdout.endsWith(`test mail to owner@example.com sent: the SMTP server 127.0.0.1:${smtp.port} accepted it\n`), result.stdout);
    const [message] = await smtp.waitForMessages(1);
    assert.equal(smtp.received.length, 1);
    assert.ok(isAddressedTo(message!, 'owner@example.com'));
    assert.equal(message!.mailFrom, 'forms@example.com');
    assert.equal(message!.parsed.subject, 'Postbox test mail');
    assert.deepEqual(rawHeaderValues(message!.raw, 'Auto-Submitted'), ['auto-generated']);
    assert.match(message!.parsed.text ?? '', /postbox check --send-test-mail/);
  });

  it('sends to --to instead of mail.to', async () => {
    const result = await runPostbox(['check', '--send-test-mail', '--to', 'Ada <ada@example.org>', '--config', smtpConfig]);
    assert.equal(result.code, 0, result.stderr);
    const [message] = await smtp.waitForMessages(1);
    assert.ok(isAddressedTo(message!, 'ada@example.org'));
    assert.ok(!isAddressedTo(message!, 'owner@example.com'));
  });

  it('a server that answers 550: its reply, host and port on stderr, exit 1', async () => {
    smtp.options = { rejectRecipient: () => true };
    const result = await runPostbox(['check', '--send-test-mail', '--config', smtpConfig]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `postbox: test mail to owner@example.com not sent: the SMTP server 127.0.0.1:${smtp.port} answered to RCPT TO: 550 Recipient refused by test server\n`,
    );
    assert.equal(smtp.received.length, 0);
  });

  it('a closed port: the network error, host and port on stderr, exit 1', async () => {
    const port = await closedPort();
    const file = await writeConfigFile(temp.dir, configWith(path.join(temp.dir, 'data'), { smtp: { host: '127.0.0.1', port } }), 'closed.toml');
    const result = await runPostbox(['check', '--send-test-mail', '--config', file]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `postbox: test mail to owner@example.com not sent: cannot reach the SMTP server 127.0.0.1:${port}: ECONNREFUSED\n`);
  });

  it('the file transport writes the mail to the outbox and says it was not sent', async () => {
    const dataDir = path.join(temp.dir, 'file-data');
    const file = await writeConfigFile(temp.dir, configWith(dataDir, {}), 'file.toml');
    const result = await runPostbox(['check', '--send-test-mail', '--config', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /test mail to owner@example\.com written to files under .*outbox, not sent/);
    assert.equal((await readdir(path.join(dataDir, 'outbox'))).filter((name) => name.endsWith('.eml')).length, 1);
  });

  it('refuses a --to that is no address (exit 2), and asks for one when there is no mail.to (exit 1)', async () => {
    const bad = await runPostbox(['check', '--send-test-mail', '--to', 'owner at example.com', '--config', smtpConfig]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^postbox: --to must be a mail address/);
    const misplaced = await runPostbox(['check', '--to', 'ada@example.org', '--config', smtpConfig]);
    assert.equal(misplaced.code, 2);
    assert.equal(misplaced.stderr, 'postbox: --to goes with --send-test-mail\n');

    const ownerless = configWith(path.join(temp.dir, 'data'), { smtp: { host: '127.0.0.1', port: smtp.port } });
    delete (ownerless.mail as TomlTable).to;
    (ownerless.forms as TomlTable[])[0]!.to = 'sales@example.com';
    const file = await writeConfigFile(temp.dir, ownerless, 'ownerless.toml');
    const none = await runPostbox(['check', '--send-test-mail', '--config', file]);
    assert.equal(none.code, 1);
    assert.equal(none.stderr, 'postbox: --send-test-mail needs an address: pass --to ADDRESS or set mail.to\n');
    assert.equal(smtp.received.length, 0);
  });
});
