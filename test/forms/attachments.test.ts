// Form attachments against a real clamd (docs/attachments.md): a clean PDF is linked in the owner mail and its
// link downloads it; EICAR quarantines the submission with reason virus and is never linked; with clamd down the
// submission is held, then delivered once clamd is back (on fake time); limits answer 413 and 400 and keep nothing.
// The same on an S3-compatible server (s3rver): files in the bucket, streamed back through the signed link.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAttachmentStoreOf, withFilesDiscarded } from '../../src/app/attachment-storage.js';
import { composeSpamRelease } from '../../src/app/spam-release.js';
import { RETRY_INTERVAL_MS } from '../../src/forms/attachment-parts.js';
import type { WebhookEvent } from '../../src/ports.js';
import { startClamd, EICAR, type TestClamd } from '../support/clamd-server.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { contactForm, TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { startS3, type TestS3 } from '../support/s3-server.js';
import { findFreePort } from '../support/smtp-server.js';
import { zipOf } from '../support/zip-file.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
// The smallest PNG: a 1x1 transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
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

function submit(forms: TestFormsService, files: Part[], message?: string) {
  const fields = message === undefined ? FIELDS : FIELDS.map((field) => (field.name === 'message' ? { name: 'message', value: message } : field));
  return forms.app.inject({
    method: 'POST',
    url: '/contact',
    headers: { origin: TEST_ORIGIN, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart([...fields, ...files]),
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

  it('links the files in the Telegram message and the webhook payload too', async () => {
    const chats: string[] = [];
    const events: WebhookEvent[] = [];
    const forms = await start({
      forms: [
        contactForm({
          attachments: { types: ['application/pdf'] },
          telegram: { bot_token: '1:T', chat_id: 1 },
          webhook: { url: 'https://hooks.example.org/postbox', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` },
        }),
      ],
      extra: { storage: { clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
      deps: {
        createChatNotifier: () => ({ send: async (text) => void chats.push(text) }),
        createWebhookNotifier: () => ({ send: async (event) => void events.push(event) }),
      },
    });
    assert.equal((await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }])).statusCode, 200);
    const chatLink = /https:\/\/forms\.example\.com(\/attachments\/\S+)/.exec(chats[0] ?? '')?.[1];
    assert.ok(chatLink, chats[0]);
    assert.equal(events.length, 1);
    const [file] = events[0]?.attachments ?? [];
    assert.deepEqual({ ...file, url: undefined }, { filename: 'report.pdf', type: 'application/pdf', size: PDF.length, url: undefined });
    for (const url of [chatLink, new URL(file!.url).pathname + new URL(file!.url).search]) {
      const download = await forms.app.inject({ method: 'GET', url });
      assert.deepEqual(download.rawPayload, PDF);
    }
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

  it('holds a submission while clamd is down and delivers it at the next minute once clamd is back', async () => {
    const timers = createFakeTimer();
    const forms = await start({
      forms: [contactForm({ attachments: { max_files: 2, max_bytes: 1024, types: ['application/pdf', 'image/*'] } })],
      extra: { storage: { clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
      deps: { timers },
    });
    await clamd.stop();
    try {
      const response = await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }]);
      assert.equal(response.statusCode, 200);
      assert.equal(forms.mailer.sent.length, 0, 'nothing is delivered unscanned');
      assert.equal((await readdir(join(forms.dataDir, 'attachments', 'held'))).length, 1);
      await timers.advance(RETRY_INTERVAL_MS);
      await timers.until('the retry done', async () => (forms.logs.lines().filter((line) => line.event === 'attachment_scan_unavailable').length >= 2 ? true : undefined));
      assert.equal(forms.mailer.sent.length, 0, 'still held while clamd is down');
    } finally {
      await clamd.start();
    }
    assert.equal(forms.mailer.sent.length, 0, 'nothing happens before the next minute');
    await timers.advance(RETRY_INTERVAL_MS);
    const mail = await timers.until('the held submission delivered', () => forms.mailer.sent.find((message) => message.to === 'owner@example.com'));
    assert.match(mail.text, /\/attachments\//);
    await timers.until('the hold released', async () => ((await readdir(join(forms.dataDir, 'attachments', 'held'))).length === 0 ? true : undefined));
  });

  it('keeps a spam submission\'s files until "Not spam" scans and links them; a virus quarantine\'s release links nothing', async () => {
    const forms = await start({
      forms: [contactForm({ spam: { blocked_words: ['casino'] }, attachments: { types: ['application/pdf', 'text/plain'] } })],
      extra: { storage: { clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
    });
    const release = composeSpamRelease(forms.config, forms.backend, forms.core, forms.logs.logger, forms.clock);
    const spam = await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }], 'Win at the casino');
    assert.equal(spam.statusCode, 200);
    assert.equal(forms.mailer.sent.length, 0);
    assert.equal((await storedFiles(forms)).length, 1, 'the file waits with the quarantined submission');
    const [waiting] = await forms.backend.spam.list('/contact', { limit: 10 });
    assert.deepEqual(waiting?.reasons, ['words']);
    assert.equal(await release(waiting!.id, 'owner'), 'released');
    const mail = forms.mailer.sent.find((message) => message.to === 'owner@example.com');
    const link = /https:\/\/forms\.example\.com(\/attachments\/\S+)/.exec(mail?.text ?? '')?.[1];
    assert.ok(link, mail?.text);
    assert.deepEqual((await forms.app.inject({ method: 'GET', url: link })).rawPayload, PDF);

    forms.mailer.sent.length = 0;
    assert.equal((await submit(forms, [{ name: 'upload', filename: 'notes.txt', content: EICAR }])).statusCode, 200);
    const [infected] = await forms.backend.spam.list('/contact', { limit: 10 });
    assert.deepEqual(infected?.reasons, ['virus']);
    assert.equal(await release(infected!.id, 'owner'), 'released');
    const released = forms.mailer.sent.find((message) => message.to === 'owner@example.com');
    assert.ok(released);
    assert.doesNotMatch(released.text, /\/attachments\//, 'a removed file is never linked');
  });

  it('deletes a spam submission\'s files when the Spam view deletes it', async () => {
    const forms = await start({
      forms: [contactForm({ spam: { blocked_words: ['casino'] }, attachments: { types: ['application/pdf'] } })],
      extra: { storage: { clamd: clamd.address } },
    });
    const spamView = withFilesDiscarded(forms.backend.spam, createAttachmentStoreOf(forms.config));
    for (let sent = 0; sent < 3; sent += 1) await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }], 'Win at the casino');
    assert.equal((await storedFiles(forms)).length, 3);
    const [newest, middle] = await forms.backend.spam.list('/contact', { limit: 10 });
    assert.equal(await spamView.discard('/contact', { id: newest!.id }, forms.clock(), 60_000), 1);
    assert.equal((await storedFiles(forms)).length, 2);
    assert.equal(await spamView.discard('/contact', { upTo: middle!.id }, forms.clock(), 60_000), 2);
    assert.deepEqual(await storedFiles(forms), []);
  });

  it('quarantines EICAR inside a ZIP: clamd unpacks the archive', async () => {
    const zipForms = await start({
      forms: [contactForm({ attachments: { types: ['application/zip'] } })],
      extra: { storage: { clamd: clamd.address } },
    });
    const clean = await submit(zipForms, [{ name: 'upload', filename: 'notes.zip', content: zipOf('notes.txt', 'Nothing to see here.') }]);
    assert.equal(clean.statusCode, 200);
    const ownerMails = () => zipForms.mailer.sent.filter((message) => message.to === 'owner@example.com').length;
    assert.equal(ownerMails(), 1, 'a clean archive is delivered');
    const response = await submit(zipForms, [{ name: 'upload', filename: 'eicar.zip', content: zipOf('eicar.com', EICAR) }]);
    assert.equal(response.statusCode, 200);
    assert.equal(ownerMails(), 1, 'the infected one is not');
    const quarantined = await zipForms.backend.spam.list('/contact', { limit: 10 });
    assert.deepEqual(quarantined.map((entry) => entry.reasons), [['virus']]);
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

describe('form attachments on an S3-compatible store', () => {
  let clamd: TestClamd;
  let s3: TestS3;
  before(async () => {
    [clamd, s3] = await Promise.all([startClamd(), startS3()]);
  });
  after(async () => {
    await Promise.all([clamd.close(), s3.close()]);
  });
  const start = useTestFormsService();
  const startForms = () =>
    start({
      forms: [contactForm({ archive: 'contact.jsonl', attachments: { max_files: 2, max_bytes: 1024, types: ['application/pdf', 'image/*', 'text/plain', 'application/zip'] } })],
      extra: { storage: { ...s3.storage, clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
    });

  it('keeps a PDF and a PNG in the bucket, links them, streams them back, and deletes them with the submission', async () => {
    const forms = await startForms();
    const response = await submit(forms, [
      { name: 'report', filename: 'report.pdf', content: PDF },
      { name: 'photo', filename: 'photo.png', content: PNG },
    ]);
    assert.equal(response.statusCode, 200);
    const mail = forms.mailer.sent.find((message) => message.to === 'owner@example.com');
    assert.ok(mail);
    const links = [...mail.text.matchAll(/https:\/\/forms\.example\.com(\/attachments\/\S+)/g)].map((match) => match[1] as string);
    assert.equal(links.length, 2, mail.text);
    const ids = links.map((link) => /\/attachments\/([^?]+)/.exec(link)?.[1] as string);
    assert.deepEqual(await s3.keys(), ids.map((id) => `attachments/${id}`).sort());
    for (const [link, content, type] of [[links[0], PDF, 'application/pdf'], [links[1], PNG, 'image/png']] as const) {
      const download = await forms.app.inject({ method: 'GET', url: link! });
      assert.equal(download.statusCode, 200, 'served by Postbox itself, never a redirect to the store');
      assert.deepEqual(download.rawPayload, content);
      assert.equal(download.headers['content-type'], type);
      assert.match(String(download.headers['content-disposition']), /^attachment; /);
      assert.equal(download.headers['x-content-type-options'], 'nosniff');
    }
    // Plain bodies with their length, signed with Signature V4, never aws-chunked.
    const puts = s3.requests.filter((request) => request.method === 'PUT');
    assert.equal(puts.length, 2);
    for (const put of puts) {
      assert.ok(Number(put.headers['content-length']) > 0);
      assert.equal(put.headers['transfer-encoding'], undefined);
      assert.equal(put.headers['content-encoding'], undefined);
      assert.equal(put.headers['x-amz-content-sha256'], 'UNSIGNED-PAYLOAD');
      assert.match(String(put.headers.authorization), /^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request/);
    }
    // The inbox deletes the files through the same store (test/admin/inbox-pages.test.ts drives the page).
    const store = createAttachmentStoreOf(forms.config);
    for (const id of ids) await store.remove(id);
    assert.deepEqual(await s3.keys(), []);
    assert.equal((await forms.app.inject({ method: 'GET', url: links[0]! })).statusCode, 404);
  });

  it('quarantines EICAR, plain and zipped, with reason virus and keeps nothing of it in the bucket', async () => {
    const forms = await startForms();
    for (const file of [
      { name: 'upload', filename: 'notes.txt', content: EICAR },
      { name: 'upload', filename: 'eicar.zip', content: zipOf('eicar.com', EICAR) },
    ]) {
      assert.equal((await submit(forms, [file])).statusCode, 200);
    }
    assert.equal(forms.mailer.sent.length, 0);
    const quarantined = await forms.backend.spam.list('/contact', { limit: 10 });
    assert.deepEqual(quarantined.map((entry) => entry.reasons), [['virus'], ['virus']]);
    assert.deepEqual(await s3.keys(), []);
  });

  it('holds a submission while clamd is down, its file in the bucket, and delivers it once clamd is back', async () => {
    const timers = createFakeTimer();
    const forms = await start({
      forms: [contactForm({ attachments: { max_files: 2, max_bytes: 1024, types: ['application/pdf'] } })],
      extra: { storage: { ...s3.storage, clamd: clamd.address }, server: { public_url: 'https://forms.example.com' } },
      deps: { timers },
    });
    await clamd.stop();
    try {
      assert.equal((await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }])).statusCode, 200);
      assert.equal(forms.mailer.sent.length, 0, 'nothing is delivered unscanned');
      assert.equal((await s3.keys()).length, 1);
    } finally {
      await clamd.start();
    }
    await timers.advance(RETRY_INTERVAL_MS);
    const mail = await timers.until('the held submission delivered', () => forms.mailer.sent.find((message) => message.to === 'owner@example.com'));
    const link = /https:\/\/forms\.example\.com(\/attachments\/\S+)/.exec(mail.text)?.[1];
    assert.deepEqual((await forms.app.inject({ method: 'GET', url: link! })).rawPayload, PDF);
    const id = /\/attachments\/([^?]+)/.exec(link!)?.[1] as string;
    await createAttachmentStoreOf(forms.config).remove(id);
  });

  it('answers 500 storage_failed when the bucket cannot be reached, keeping nothing', async () => {
    const forms = await start({
      forms: [contactForm({ attachments: { types: ['application/pdf'] } })],
      extra: { storage: { ...s3.storage, endpoint: `http://127.0.0.1:${await findFreePort()}`, clamd: clamd.address } },
    });
    const response = await submit(forms, [{ name: 'upload', filename: 'report.pdf', content: PDF }]);
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().error, 'storage_failed');
    assert.equal(forms.mailer.sent.length, 0);
    assert.deepEqual(await readdir(join(forms.dataDir, 'attachments', 'spool')), []);
  });

  it('refuses HTML renamed .pdf, a file too large and too many files, keeping nothing in the bucket', async () => {
    const forms = await startForms();
    const html = await submit(forms, [{ name: 'page', filename: 'report.pdf', content: '<!doctype html><script>alert(1)</script>' }]);
    assert.equal(html.statusCode, 400);
    const tooLarge = await submit(forms, [{ name: 'upload', filename: 'big.pdf', content: Buffer.concat([PDF, Buffer.alloc(2048, 0x20)]) }]);
    assert.equal(tooLarge.statusCode, 413);
    const tooMany = await submit(forms, [1, 2, 3].map((index) => ({ name: `file${index}`, filename: `r${index}.pdf`, content: PDF })));
    assert.equal(tooMany.statusCode, 400);
    assert.deepEqual(await s3.keys(), []);
    assert.deepEqual(await readdir(join(forms.dataDir, 'attachments', 'spool')).catch(() => []), [], 'no spooled file left behind');
  });
});
