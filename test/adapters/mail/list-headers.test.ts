// The list headers of a mail to subscribers (RFC 2369, RFC 2919, RFC 8058) on a real message: parsed by
// mailparser, List-Unsubscribe on one unfolded line, and covered by the DKIM signature (checked by mailauth).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { MailMessage } from '../../../src/ports.js';
import { createFileMailer } from '../../../src/adapters/mail/file-mailer.js';
import { dkimTestKey } from '../../support/dkim-keys.js';
import { withTempDir } from '../../support/temp-dir.js';

const key = dkimTestKey();
const URL_ = `https://forms.example.com/newsletter/unsubscribe?token=${'YWRhQGV4YW1wbGUub3Jn'}.${'x'.repeat(43)}`;
const MESSAGE: MailMessage = {
  from: 'Example Forms <forms@example.com>',
  to: 'ada@example.org',
  subject: 'A post',
  text: `Hello\n\nUnsubscribe: ${URL_}\n`,
  autoSubmitted: 'auto-generated',
  list: { id: 'newsletter.forms.example.com', unsubscribeUrl: URL_ },
};

async function writeOne(dir: string, dkim = true): Promise<string> {
  const mailer = createFileMailer({
    outboxDir: dir,
    clock: Date.now,
    ...(dkim ? { dkim: { domain: 'example.com', selector: 'postbox', private_key: key.privateKeyPem } } : {}),
  });
  await mailer.send(MESSAGE);
  const [name] = await readdir(dir);
  return readFile(path.join(dir, name!), 'utf8');
}

describe('list headers', () => {
  it('List-Unsubscribe, List-Unsubscribe-Post and List-Id, List-Unsubscribe on one line', async () => {
    await withTempDir('list-headers', async (dir) => {
      const raw = await writeOne(dir, false);
      assert.ok(raw.includes(`\r\nList-Unsubscribe: <${URL_}>\r\n`), 'one unfolded line');
      const parsed = await simpleParser(raw);
      const lines = new Map(parsed.headerLines.map((header) => [header.key, header.line]));
      assert.equal(lines.get('list-unsubscribe-post'), 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      assert.equal(lines.get('list-unsubscribe'), `List-Unsubscribe: <${URL_}>`);
      assert.match(lines.get('list-id') ?? '', /^List-Id: <newsletter\.forms\.example\.com>$/i); // nodemailer writes List-ID
      // mailparser's structured view of the list headers (its `list` object) reads the same URL.
      const list = parsed.headers.get('list') as { unsubscribe?: { url?: string } };
      assert.equal(list.unsubscribe?.url, URL_);

    });
  });

  it('the DKIM signature covers List-Unsubscribe and List-Unsubscribe-Post, and verifies', async () => {
    await withTempDir('list-headers', async (dir) => {
      const raw = await writeOne(dir);
      const record = key.txtRecord;
      const { results } = await dkimVerify(Buffer.from(raw), {
        resolver: async (domain: string, type: string) => {
          if (type === 'TXT' && domain === 'postbox._domainkey.example.com') return [record.match(/.{1,255}/g) ?? []];
          throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        },
      });
      assert.equal(results[0]?.status.result, 'pass', JSON.stringify(results[0]?.status));
      const signed = /\bh=([^;]+);/.exec(raw.replace(/\r\n\s+/g, ''))?.[1]?.toLowerCase().split(':') ?? [];
      for (const name of ['list-unsubscribe', 'list-unsubscribe-post', 'list-id']) assert.ok(signed.includes(name), `${name} in h=`);
    });
  });

  it('refuses a list value with a line break', () => {
    const mailer = createFileMailer({ outboxDir: '/nonexistent', clock: Date.now });
    return assert.rejects(mailer.send({ ...MESSAGE, list: { id: 'x', unsubscribeUrl: 'https://a\r\nBcc: b' } }), { code: 'EUNSAFEHEADER' });
  });
});
