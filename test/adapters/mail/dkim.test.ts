// DKIM: real messages signed by both transports (the file outbox, and SMTP to a real smtp-server) and verified
// by an independent verifier, mailauth's dkimVerify, against the public key published as a DNS TXT record.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dkimVerify, type DKIMResult as DeclaredDkimResult } from 'mailauth';
import { composeServices } from '../../../src/app/compose.js';
import type { DkimConfig } from '../../../src/config/config.js';
import type { MailMessage } from '../../../src/ports.js';
import { createFileMailer } from '../../../src/adapters/mail/file-mailer.js';
import { createSmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import { loadTestConfig } from '../../support/config.js';
import { dkimTestKey } from '../../support/dkim-keys.js';
import { contactForm } from '../../support/forms-app.js';
import { driveService } from '../../support/http.js';
import { captureLogs } from '../../support/log-capture.js';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { waitFor } from '../../support/wait.js';
import { withTempDir } from '../../support/temp-dir.js';

const key = dkimTestKey();
const DKIM: DkimConfig = { domain: 'example.com', selector: 'postbox', private_key: key.privateKeyPem };
const MESSAGE: MailMessage = {
  from: 'Example Forms <forms@example.com>',
  to: 'owner@example.com',
  replyTo: 'ada@example.org',
  subject: 'New contact form submission from Ada – ü',
  text: 'Name: Ada Lovelace\nEmail: ada@example.org\n\nMessage:\nHello!  Trailing spaces   \n\n\n',
  autoSubmitted: 'auto-generated',
};

/** A DNS that knows one record: the public key at `<selector>._domainkey.<domain>`, in 255-byte strings as DNS holds it. */
function dnsWith(record: string, name = `${DKIM.selector}._domainkey.${DKIM.domain}`) {
  return async (domain: string, type: string): Promise<string[][]> => {
    if (type === 'TXT' && domain === name) return [record.match(/.{1,255}/g) ?? []];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${domain}`), { code: 'ENOTFOUND' });
  };
}

/** mailauth 4 reports the signature's algorithm and canonicalization without declaring them in its types. */
type DKIMResult = DeclaredDkimResult & { algo?: string; format?: string };

async function verify(raw: string | Buffer, record = key.txtRecord): Promise<DKIMResult[]> {
  const { results } = await dkimVerify(Buffer.from(raw), { resolver: dnsWith(record) });
  return results;
}

function assertPasses(results: DKIMResult[]): void {
  assert.equal(results.length, 1, 'one signature');
  const [result] = results;
  assert.equal(result?.status.result, 'pass', JSON.stringify(result?.status));
  assert.equal(result?.signingDomain, 'example.com');
  assert.equal(result?.selector, 'postbox');
  assert.equal(result?.algo, 'rsa-sha256');
  assert.equal(result?.format, 'relaxed/relaxed');
}

async function outboxMessages(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map((name) => readFile(path.join(dir, name), 'utf8')));
}

describe('DKIM with the file transport', () => {
  it('signs the message it writes; mailauth verifies it against the published key', async () => {
    await withTempDir('dkim-file', async (dir) => {
      const mailer = createFileMailer({ outboxDir: dir, clock: Date.now, dkim: DKIM });
      await mailer.send(MESSAGE);
      await mailer.close();
      const [raw] = await outboxMessages(dir);
      assert.ok(raw);
      assert.match(raw, /^DKIM-Signature: /);
      assertPasses(await verify(raw));
    });
  });

  it('a changed body, a changed signed header or another key fails verification', async () => {
    await withTempDir('dkim-file', async (dir) => {
      const mailer = createFileMailer({ outboxDir: dir, clock: Date.now, dkim: DKIM });
      await mailer.send(MESSAGE);
      const [raw = ''] = await outboxMessages(dir);
      const body = raw.indexOf('\r\n\r\n');
      const tamperedBody = raw.slice(0, body) + raw.slice(body).replace('Hello!', 'Hullo!');
      assert.notEqual(tamperedBody, raw);
      const [bodyResult] = await verify(tamperedBody);
      assert.equal(bodyResult?.status.result, 'neutral', 'mailauth reports a body hash mismatch as neutral');
      assert.match(bodyResult?.status.comment ?? '', /body hash did not verify/);
      const tamperedHeader = raw.replace(/^Subject: .*$/m, 'Subject: Something else');
      assert.notEqual(tamperedHeader, raw);
      assert.equal((await verify(tamperedHeader))[0]?.status.result, 'fail');
      assert.equal((await verify(raw, dkimTestKey(1024).txtRecord))[0]?.status.result, 'fail');
    });
  });

  it('writes no signature without [mail.dkim]', async () => {
    await withTempDir('dkim-file', async (dir) => {
      const mailer = createFileMailer({ outboxDir: dir, clock: Date.now });
      await mailer.send(MESSAGE);
      const [raw = ''] = await outboxMessages(dir);
      assert.doesNotMatch(raw, /^DKIM-Signature:/im);
      assert.equal((await verify(raw)).length, 1);
      assert.equal((await verify(raw))[0]?.status.result, 'none');
    });
  });
});

describe('DKIM over real SMTP', () => {
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(() => smtp.close());

  it('the message the server received verifies; tampered in transit it does not', async () => {
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, secure: false }, DKIM);
    try {
      await mailer.send(MESSAGE);
    } finally {
      await mailer.close();
    }
    const [received] = await smtp.waitForMessages(1);
    assert.ok(received);
    assertPasses(await verify(received.raw));
    const [tampered] = await verify(received.raw.replace('Ada Lovelace', 'Eve Lovelace'));
    assert.notEqual(tampered?.status.result, 'pass');
  });
});

describe('DKIM through the forms service', () => {
  it('the owner mail and the receipt of a submission are both signed', async () => withTempDir('dkim-service', async (dataDir) => {
    const config = loadTestConfig(
      { data_dir: dataDir, mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', dkim: { ...DKIM } }, forms: [contactForm()] },
      dataDir,
    );
    const logs = captureLogs();
    const composed = await composeServices(config, { logger: logs.logger, requestLog: logs.requestLog });
    try {
      const response = await driveService(composed.services[0]!).inject({
        method: 'POST',
        url: '/contact',
        headers: { 'content-type': 'application/json' },
        payload: { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' },
      });
      assert.equal(response.statusCode, 200);
      // The queue (on by default) sends them just after the answer.
      const messages = await waitFor('two mails in the outbox', async () => {
        const found = await outboxMessages(path.join(dataDir, 'outbox')).catch(() => []);
        return found.length >= 2 ? found : undefined;
      });
      assert.equal(messages.length, 2);
      for (const raw of messages) assertPasses(await verify(raw));
    } finally {
      await composed.close();
    }
  }));
});
