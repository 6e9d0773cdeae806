// The type of a file from its first bytes (src/forms/attachments/sniff.ts): the families a form may take, and
// never markup, scripts or programs whatever their name.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DEFAULT_ATTACHMENT_TYPES } from '../../../src/config/attachments.js';
import { isTypeAccepted, sniffType } from '../../../src/forms/attachments/sniff.js';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

it('recognises the default families from their magic numbers', () => {
  const cases: Array<[Buffer, string | undefined]> = [
    [bytes([0x89], 'PNG\r\n\x1a\n', 'rest'), 'image/png'],
    [bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [bytes('GIF89a..'), 'image/gif'],
    [bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'image/webp'],
    [bytes('%PDF-1.7\n'), 'application/pdf'],
    [bytes('PK\x03\x04', 'x'.repeat(26), 'mimetypeapplication/vnd.oasis.opendocument.text'), 'application/vnd.oasis.opendocument.text'],
    [bytes('PK\x03\x04', 'x'.repeat(26), '[Content_Types].xml....word/document.xml'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    [bytes('PK\x03\x04', 'x'.repeat(26), 'payload.exe'), 'application/zip'],
    [Buffer.from('Grüße,\nplain text\twith a tab\n'), 'text/plain'],
    [Buffer.from('  <!doctype html><script>'), undefined],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), undefined],
    [Buffer.from('#!/bin/sh\nrm -rf /\n'), undefined],
    [bytes('MZ', [0x90, 0, 3, 0]), undefined],
    [bytes([0x7f], 'ELF', [2, 1, 1]), undefined],
    [Buffer.from([0xc3, 0x28]), undefined],
    [Buffer.alloc(0), undefined],
  ];
  for (const [head, type] of cases) assert.equal(sniffType(head, true), type, head.toString('latin1'));
});

it('takes a head cut inside a UTF-8 character as text while the file goes on', () => {
  const head = Buffer.from('ab€').subarray(0, 4);
  assert.equal(sniffType(head, false), 'text/plain');
  assert.equal(sniffType(head, true), undefined);
});

it('matches types and families', () => {
  assert.equal(isTypeAccepted('image/png', ['image/*']), true);
  assert.equal(isTypeAccepted('application/pdf', ['image/*', 'application/pdf']), true);
  assert.equal(isTypeAccepted('text/plain', ['image/*', 'application/pdf']), false);
  // A ZIP is taken only when a form lists it: the defaults do not.
  assert.equal(isTypeAccepted('application/zip', DEFAULT_ATTACHMENT_TYPES), false);
});
