// A mail with an HTML alternative and `Precedence: bulk` (a campaign) on a real message: built by nodemailer,
// parsed back by mailparser, and still DKIM-signed so that an independent verifier (mailauth) passes it.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { MailMessage } from '../../../src/ports.js';
import { createFileMailer } from '../../../src/adapters/mail/file-mailer.js';
import { createNodemailerMailer } from '../../../src/adapters/mail/nodemailer-mailer.js';
import { dkimTestKey } from '../../support/dkim-keys.js';
import { withTempDir } from '../../support/temp-dir.js';

const key = dkimTestKey();
const MESSAGE: MailMessage = {
  from: 'Example Blog <blog@example.com>',
  to: 'ada@example.org',
  subject: 'A post – ü',
  text: 'A post\n\nHello, world [https://blog.example.com/]\n',
  html: '<h1 style="font-size:24px">A post – ü</h1><p>Hello, <a href="https://blog.example.com/">world</a></p>',
  autoSubmitted: 'auto-generated',
  precedence: 'bulk',
  list: { id: 'newsletter.blog.example.com', unsubscribeUrl: 'https://blog.example.com/newsletter/unsubscribe?token=abc' },
};

/** The raw message as the file transport writes it. */
async function writeOne(message: MailMessage, dkim: boolean): Promise<string> {
  return withTempDir('html-part', async (dir) => {
    const mailer = createFileMailer({
      outboxDir: dir,
      clock: Date.now,
      ...(dkim ? { dkim: { domain: 'example.com', selector: 'postbox', private_key: key.privateKeyPem } } : {}),
    });
    await mailer.send(message);
    await mailer.close();
    const [name] = await readdir(dir);
    return readFile(path.join(dir, name!), 'utf8');
  });
}

describe('a mail with an HTML part', () => {
  it('goes out as multipart/alternative with both parts and Precedence: bulk (any nodemailer transport)', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const sent: Buffer[] = [];
    // The real transport, with its finished message kept for the test.
    const sendMail = transport.sendMail.bind(transport);
    transport.sendMail = (async (options: SendMailOptions) => {
      const info = await sendMail(options);
      sent.push(info.message as Buffer);
      return info;
    }) as typeof transport.sendMail;
    const mailer = createNodemailerMailer(transport);
    await mailer.send(MESSAGE);
    const parsed = await simpleParser(sent[0]!);
    assert.equal(parsed.subject, 'A post – ü');
    assert.equal(parsed.text?.trim(), MESSAGE.text.trim());
    assert.equal(parsed.html, MESSAGE.html);
    assert.equal(parsed.headers.get('precedence'), 'bulk');
    assert.equal((parsed.headers.get('content-type') as { value: string }).value, 'multipart/alternative');
  });

  it('the file transport keeps both parts and the header', async () => {
    const parsed = await simpleParser(await writeOne(MESSAGE, false));
    assert.equal(parsed.text?.trim(), MESSAGE.text.trim());
    assert.equal(parsed.html, MESSAGE.html);
    assert.equal(parsed.headers.get('precedence'), 'bulk');
  });

  it('a mail without them stays text/plain with no Precedence header', async () => {
    const { html: _html, precedence: _precedence, ...plain } = MESSAGE;
    const raw = await writeOne(plain, false);
    const parsed = await simpleParser(raw);
    assert.equal(parsed.html, false);
    assert.equal(parsed.headers.has('precedence'), false);
    assert.match(raw, /^Content-Type: text\/plain/m);
  });

  it('is DKIM-signed and verifies', async () => {
    const raw = await writeOne(MESSAGE, true);
    const { results } = await dkimVerify(Buffer.from(raw), {
      resolver: async (domain: string, type: string) => {
        if (type === 'TXT' && domain === 'postbox._domainkey.example.com') return [key.txtRecord.match(/.{1,255}/g) ?? []];
        throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    assert.equal(results[0]?.status.result, 'pass', JSON.stringify(results[0]?.status));
  });
});
