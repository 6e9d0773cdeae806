// The `file` transport: one real MIME .eml per message under data_dir/outbox, written atomically, named to
// sort by time.
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { createFileMailer } from '../../../src/adapters/mail/file-mailer.js';
import { createTestClock } from '../../support/clock.js';
import { composeServices } from '../../../src/app/compose.js';
import { contactForm } from '../../support/forms-app.js';
import { loadTestConfig } from '../../support/config.js';
import { driveService } from '../../support/http.js';
import { captureLogs } from '../../support/log-capture.js';
import { waitFor } from '../../support/wait.js';
import { withTempDir } from '../../support/temp-dir.js';

describe('createFileMailer', () => {
  it('writes each message as a parsable .eml; names sort in sending order; no temp files stay', async () => {
    await withTempDir('outbox', async (dir) => {
      const clock = createTestClock(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
      const mailer = createFileMailer({ outboxDir: dir, clock });
      await mailer.send({ from: 'Forms <forms@example.com>', to: 'owner@example.com', replyTo: 'ada@example.org', subject: 'First – ü', text: 'Body one\nline two', autoSubmitted: 'auto-generated' });
      await mailer.send({ from: 'Forms <forms@example.com>', to: 'ada@example.org', subject: 'Second', text: 'Body two', autoSubmitted: 'auto-replied' });
      clock.advance(1);
      await mailer.send({ from: 'Forms <forms@example.com>', to: 'owner@example.com', subject: 'Third', text: 'Body three', autoSubmitted: 'auto-generated' });
      await mailer.close();
      const names = await readdir(dir);
      assert.equal(names.length, 3);
      assert.ok(names.every((name) => /^\d{8}T\d{6}-\d{3}Z-\d{6}-[0-9a-f]{8}\.eml$/.test(name)), names.join());
      assert.deepEqual(
        names.sort().map((name) => name.slice(0, 27)),
        ['20240102T030405-678Z-000001', '20240102T030405-678Z-000002', '20240102T030405-679Z-000003'],
      );
      const subjects = [];
      const autoSubmitted = [];
      for (const name of names.sort()) {
        const raw = await readFile(path.join(dir, name));
        assert.ok(raw.includes('\r\n'), 'CRLF line ends, as in a real message');
        const mail = await simpleParser(raw);
        subjects.push(mail.subject);
        autoSubmitted.push(mail.headers.get('auto-submitted'));
        assert.equal(mail.from?.value[0]?.address, 'forms@example.com');
        assert.ok(mail.messageId);
        assert.equal((await stat(path.join(dir, name))).mode & 0o077, 0, 'not readable by others');
      }
      assert.deepEqual(subjects, ['First – ü', 'Second', 'Third']);
      assert.deepEqual(autoSubmitted, ['auto-generated', 'auto-replied', 'auto-generated'], 'RFC 3834 Auto-Submitted as the message says');
      const first = await simpleParser(await readFile(path.join(dir, names.sort()[0] as string)));
      assert.equal(first.replyTo?.value[0]?.address, 'ada@example.org');
      assert.equal(first.text?.trim(), 'Body one\nline two');
    });
  });

  it('rejects when the outbox cannot be made or written, leaving nothing behind', async () => {
    await withTempDir('outbox', async (dir) => {
      await writeFile(path.join(dir, 'a-file'), '');
      const mailer = createFileMailer({ outboxDir: path.join(dir, 'a-file', 'outbox'), clock: Date.now });
      await assert.rejects(mailer.send({ from: 'f@example.com', to: 'o@example.com', subject: 's', text: 't', autoSubmitted: 'auto-generated' }));
      assert.deepEqual(await readdir(dir), ['a-file']);
    });
  });
});

describe('the forms service with the default file transport', () => {
  it('drops the owner mail and the receipt in data_dir/outbox, made at the first mail', async () => withTempDir('file-transport', async (dataDir) => {
    const config = loadTestConfig({ data_dir: dataDir, mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com' }, forms: [contactForm()] }, dataDir);
    assert.equal(config.mail?.transport, 'file');
    const logs = captureLogs();
    const composed = await composeServices(config, { logger: logs.logger, requestLog: logs.requestLog });
    try {
      const forms = driveService(composed.services[0]!);
      const response = await forms.inject({
        method: 'POST',
        url: '/contact',
        headers: { 'content-type': 'application/json' },
        payload: { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' },
      });
      assert.equal(response.statusCode, 200);
      // The queue (on by default) sends them just after the answer.
      const names = await waitFor('two mails in the outbox', async () => {
        const found = (await readdir(path.join(dataDir, 'outbox')).catch(() => [])).filter((name) => name.endsWith('.eml')).sort();
        return found.length >= 2 ? found : undefined;
      });
      assert.equal(names.length, 2);
      // The queue sends both at once, so either may be written first: each is known by its recipient.
      const mails = await Promise.all(names.map(async (name) => simpleParser(await readFile(path.join(dataDir, 'outbox', name)))));
      const recipientOf = (mail: (typeof mails)[number]) => (mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined);
      assert.deepEqual(mails.map(recipientOf).sort(), ['ada@example.org', 'owner@example.com']);
      const owner = mails.find((mail) => recipientOf(mail) === 'owner@example.com');
      const receipt = mails.find((mail) => recipientOf(mail) === 'ada@example.org');
      // The receipt goes wherever a visitor asks: none of its headers may give the owner's inbox away.
      assert.equal(receipt?.replyTo, undefined);
      for (const { line } of receipt?.headerLines ?? []) assert.ok(!line.includes('owner@example.com'), line);
      assert.deepEqual([owner?.headers.get('auto-submitted'), receipt?.headers.get('auto-submitted')], ['auto-generated', 'auto-replied']);
    } finally {
      await composed.close();
    }
  }));
});
