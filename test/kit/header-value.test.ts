// Mail header hygiene: free text flattened to one line, RFC 2047 encoded words decoded before, addresses with a
// line break refused (docs/forms-api.md "Delivery": no line break from input in a header, not even encoded).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { toNodemailerMessage } from '../../src/adapters/mail/nodemailer-mailer.js';
import { decodeEncodedWords, isSafeAddressValue, toHeaderText } from '../../src/kit/header-value.js';

describe('toHeaderText', () => {
  it('turns every run of control characters into one space', () => {
    assert.equal(toHeaderText(' a\r\n\tb\u0000c\u2029d '), 'a b c d');
  });
});

describe('toHeaderText and RFC 2047 encoded words', () => {
  it('decodes Q and B words in any case and charset, joins neighbours, and leaves other text alone', () => {
    assert.equal(decodeEncodedWords('=?ISO-8859-1?Q?Andr=E9?= Pirard'), 'André Pirard');
    assert.equal(decodeEncodedWords('=?utf-8?b?w6l0w6k=?= =?UTF-8?Q?_d=C3=A9j=C3=A0?='), 'été déjà');
    assert.equal(decodeEncodedWords('=?US-ASCII*EN?Q?Keith_Moore?='), 'Keith Moore');
    assert.equal(decodeEncodedWords('1 + 1 =? 2, a?=b'), '1 + 1 =? 2, a?=b');
    assert.equal(toHeaderText('Ada Lovelace'), 'Ada Lovelace');
  });

  it('never lets a word spell a control character, however deep it is nested', () => {
    let word = 'a\r\nBcc: x@y';
    for (let level = 0; level < 12; level += 1) word = `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`;
    assert.equal(toHeaderText(word), 'a Bcc: x@y');
    assert.equal(toHeaderText('=?UTF-8?Q?=C2=85=E2=80=A8x?='), 'x', 'NEL and LINE SEPARATOR too');
  });

  it('as a mail program reads it: nodemailer writes the subject, a MIME parser finds no line break and no Bcc', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'crlf' });
    for (const name of ['=?UTF-8?Q?a=0D=0ABcc:_x@y?=', `=?utf-8?b?${Buffer.from('a\r\nBcc: x@y').toString('base64')}?=`]) {
      const options = toNodemailerMessage({ from: 'f@example.com', to: 'o@example.com', subject: `New contact form submission from ${name}`, text: 'x', autoSubmitted: 'auto-generated' });
      const { message } = await transport.sendMail(options);
      const parsed = await simpleParser(message as Buffer);
      assert.equal(parsed.subject, 'New contact form submission from a Bcc: x@y', name);
      assert.equal(parsed.headers.get('bcc'), undefined, name);
    }
  });
});

describe('isSafeAddressValue', () => {
  it('refuses any control character or line separator but the tab a quoted string may hold', () => {
    assert.equal(isSafeAddressValue('"a\tb"@example.org'), true);
    assert.equal(isSafeAddressValue('Forms <forms@example.com>'), true);
    for (const bad of ['a@example.org\r\nBcc: x@evil.example', 'a@example.org\n', 'a\u0000@example.org', 'a\u0085@example.org', 'a\u2028@example.org']) {
      assert.equal(isSafeAddressValue(bad), false, JSON.stringify(bad));
    }
  });
});
