// Form attachments against a real clamd (docs/attachments.md): a clean PDF is linked in the owner mail and its
// link downloads it; EICAR quarantines the submission with reason virus and is never linked; with clamd down the
// submission is held, then delivered once clamd is back; limits answer 413 and 400 and keep nothing.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startClamd, EICAR, type TestClamd } from '../support/clamd-server.js';
import { contactForm, TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { waitFor } from '../support/wait.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const BOUNDARY = 'postbox-test-boundary';

type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer | string };

function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = 'filename' in part ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`;
    const type = 'filename' in part ? '\r\nContent-Type: application/octet-stream' : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.from('filename' in part ? part.content : part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const FIELDS: Part[] = [
  { name: 'name', value: 'Ada Lovelace' },
  { name: 'email', value: 'ada@example.org' },
  { name: 'message', value: 'Please find the file attached.' },
];

function submit(forms: TestFormsService, files: Part[]) {
  return forms.app.inject({
    method: 'POST',
    url: '/contact',
    headers: { origin: TEST_ORIGIN, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart([...FIELDS, ...files]),
  });
}

async function storedFiles(forms: TestFormsService): Promise<string[]> {
  const names = await readdir(join(forms.dataDir, 'attachments')).catch(() => [] as string[]);
  return names.filter((name) => name !== 'held');
}

describe('form attachments with clamd', () => {
  let clamd: TestClamd;
  before(async () => {
    clamd = await startClamd();
  });
  after(async () => {
    await clamd.close();
  });
  const start = useTestFormsService();
  const startForms = () =>
    start({
      forms: [contactForm({ attachments: { max_files: 2, max_bytes: 1024, types: ['application/pdf', 'image/*'] } })],
      extra: { storage: { clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
    });

  it('links a clean PDF in the owner mail, and the link downloads it', async () => {
    const forms = await startForms();
    const response = await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }]);
    assert.equal(response.statusCode, 200);
    const mail = forms.mailer.sent.find((message) => message.to === 'owner@example.com');
    assert.ok(mail, 'the owner mail was sent');
    const link = /https:\/\/forms\.example\.com(\/attachments\/\S+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    assert.match(mail.text, /report\.pdf \(application\/pdf, \d+ bytes\)/);
    const download = await forms.app.inject({ method: 'GET', url: link });
    assert.equal(download.statusCode, 200);
    assert.deepEqual(download.rawPayload, PDF);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.match(String(download.headers['content-disposition']), /^attachment; filename="report\.pdf"/);
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    const forged = link.replace(/[0-9a-f]$/, (last) => (last === '0' ? '1' : '0'));
    assert.equal((await forms.app.inject({ method: 'GET', url: forged })).statusCode, 404);
  });

  it('quarantines EICAR with reason virus, removes it and links nothing', async () => {
    // EICAR is text, not a PDF: a form taking text/plain receives it.
    const textForms = await start({
      forms: [contactForm({ attachments: { types: ['text/plain'] } })],
      extra: { storage: { clamd: clamd.address } },
    });
    const response = await submit(textForms, [{ name: 'upload', filename: 'notes.txt', content: EICAR }]);
    assert.equal(response.statusCode, 200);
    assert.equal(textForms.mailer.sent.length, 0);
    const quarantined = await textForms.backend.spam.list('/contact', { limit: 10 });
    assert.equal(quarantined.length, 1);
    assert.deepEqual(quarantined[0]?.reasons, ['virus']);
    assert.deepEqual(await storedFiles(textForms), []);
  });

  it('holds a submission while clamd is down and delivers it once clamd is back', async () => {
    const forms = await startForms();
    await clamd.stop();
    try {
      const response = await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }]);
      assert.equal(response.statusCode, 200);
      assert.equal(forms.mailer.sent.length, 0, 'nothing is delivered unscanned');
      assert.equal((await readdir(join(forms.dataDir, 'attachments', 'held'))).length, 1);
    } finally {
      await clamd.start();
    }
    const mail = await waitFor('the held submission delivered', () => forms.mailer.sent.find((message) => message.to === 'owner@example.com'));
    assert.match(mail.text, /\/attachments\//);
    await waitFor('the hold released', async () => ((await readdir(join(forms.dataDir, 'attachments', 'held'))).length === 0 ? true : undefined));
  });

  it('tells a client declaring a body of fields and files "100 Continue" over a real socket', async () => {
    const forms = await start({
      forms: [contactForm({ attachments: { max_files: 1, max_bytes: 4096, types: ['application/pdf'] } })],
      extra: { storage: { clamd: clamd.address }, server: { max_body_bytes: 1024 } },
    });
    const running = await forms.app.listen();
    try {
      const payload = multipart([...FIELDS, { name: 'upload', filename: 'report.pdf', content: Buffer.concat([PDF, Buffer.alloc(2048, 0x20)]) }]);
      const status = await new Promise<number>((resolve, reject) => {
        const outgoing = request(`${running.address}/contact`, {
          method: 'POST',
          headers: { origin: TEST_ORIGIN, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': payload.length, expect: '100-continue' },
        });
        outgoing.on('continue', () => outgoing.end(payload));
        outgoing.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        outgoing.on('error', reject);
      });
      assert.equal(status, 200);
    } finally {
      await running.close(0);
    }
    const json = await forms.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', message: 'x'.repeat(2000) }),
    });
    assert.equal(json.statusCode, 413, 'a JSON body keeps max_body_bytes: it is held in memory');
  });

  it('answers 413 for a file too large and 400 for too many files or a refused type, keeping nothing', async () => {
    const forms = await startForms();
    const big = Buffer.concat([PDF, Buffer.alloc(2048, 0x20)]);
    const tooLarge = await submit(forms, [{ name: 'upload', filename: 'big.pdf', content: big }]);
    assert.equal(tooLarge.statusCode, 413);
    assert.match(tooLarge.json().message, /"upload"/);

    const tooMany = await submit(forms, [1, 2, 3].map((index) => ({ name: `file${index}`, filename: `r${index}.pdf`, content: PDF })));
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().error, 'validation');
    assert.equal(tooMany.json().details[0].field, 'attachments');

    const html = await submit(forms, [{ name: 'page', filename: 'report.pdf', content: '<html><script>alert(1)</script></html>' }]);
    assert.equal(html.statusCode, 400);
    assert.equal(html.json().details[0].field, 'page');

    assert.deepEqual(await storedFiles(forms), []);
    assert.equal(forms.mailer.sent.length, 0);
  });
});
