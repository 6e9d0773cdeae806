// The plain HTML contact form of docs/embedding.md in a real browser: no script, urlencoded and multipart.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { THANKS_TITLE, useEnvironment } from './support/environment.js';
import { isRequestLine } from '../support/postbox-process.js';
import { isAddressedTo } from '../support/smtp-server.js';

const OWNER = 'owner@example.com';
const environment = useEnvironment();

test('the plain form posts urlencoded, follows redirect_url (303) to the thanks page, and the owner gets the mail', { timeout: 60_000 }, async (t) => {
  const { site, formsUrl, smtp, newPage } = environment();
  const marker = randomUUID();
  const page = await newPage(t);
  await page.goto(`${site.origin}/contact-form.html`);
  await page.fill('#contact-name', 'Ada Lovelace');
  await page.fill('#contact-email', `ada-${marker}@example.org`);
  await page.fill('#contact-message', `I would like a website for my engine. ${marker}`);

  const [request] = await Promise.all([
    page.waitForRequest((candidate) => candidate.url() === `${formsUrl}/contact` && candidate.method() === 'POST'),
    page.waitForURL(`${site.origin}/thanks.html`),
    page.click('button[type=submit]'),
  ]);
  const headers = await request.allHeaders();
  assert.match(headers['content-type'] ?? '', /^application\/x-www-form-urlencoded/);
  assert.equal(headers.origin, site.origin);
  const answer = await request.response();
  assert.equal(answer?.status(), 303);
  assert.equal(answer?.headers().location, `${site.origin}/thanks.html`);
  assert.equal(await page.locator('h1').textContent(), THANKS_TITLE);
  assert.ok(site.requests.some((served) => served.method === 'GET' && served.path === '/thanks.html'));

  const received = await smtp.waitForMessage('owner mail of the plain form', (mail) =>
    isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(marker),
  );
  assert.match(received.parsed.text ?? '', /Ada Lovelace/);
  assert.equal(received.parsed.replyTo?.value[0]?.address, `ada-${marker}@example.org`);
  const receipt = await smtp.waitForMessage('the receipt to the submitter', (mail) => isAddressedTo(mail, `ada-${marker}@example.org`));
  const receiptText = `${receipt.parsed.subject ?? ''}\n${receipt.parsed.text ?? ''}`;
  assert.ok(!receiptText.includes('Ada Lovelace') && !receiptText.includes('my engine'), 'the receipt echoes neither name nor message');
});

test('the multipart form with a file input is accepted, and the file never reaches the mail', { timeout: 60_000 }, async (t) => {
  const { site, formsUrl, smtp, newPage } = environment();
  const marker = randomUUID();
  // Large enough that the request's size shows the browser really sent it (CDP does not expose file bodies).
  const fileContent = `FILE-CONTENT-${marker}\n`.repeat(2048);
  const page = await newPage(t);
  await page.goto(`${site.origin}/contact-form-multipart.html`);
  await page.fill('#upload-name', 'Grace Hopper');
  await page.fill('#upload-email', `grace-${marker}@example.org`);
  await page.fill('#upload-message', `Please see the attached plan. ${marker}`);
  await page.setInputFiles('#upload-file', { name: 'secret-plan.txt', mimeType: 'text/plain', buffer: Buffer.from(fileContent) });

  const [request] = await Promise.all([
    page.waitForRequest((candidate) => candidate.url() === `${formsUrl}/contact` && candidate.method() === 'POST'),
    page.waitForURL(`${site.origin}/thanks.html`),
    page.click('button[type=submit]'),
  ]);
  const headers = await request.allHeaders();
  assert.match(headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
  assert.ok(Number(headers['content-length']) > fileContent.length, `the browser sent the file (${headers['content-length']} bytes)`);
  assert.equal((await request.response())?.status(), 303);

  const received = await smtp.waitForMessage('owner mail of the multipart form', (mail) =>
    isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(marker),
  );
  assert.match(received.parsed.text ?? '', /Grace Hopper/);
  assert.deepEqual(received.parsed.attachments, []);
  for (const mail of smtp.received) {
    const everything = `${mail.parsed.text ?? ''}${mail.parsed.html || ''}${mail.parsed.attachments.map((part) => part.content.toString()).join('')}`;
    assert.ok(!everything.includes(`FILE-CONTENT-${marker}`), 'no mail carries the file content');
    assert.ok(!everything.includes('secret-plan.txt'), 'no mail names the file');
  }
});

test('the honeypot is off-screen, out of the tab order and the accessibility tree, yet a bot filling it is silently dropped', { timeout: 60_000 }, async (t) => {
  const { site, formsUrl, smtp, postbox, metrics, newPage } = environment();
  const page = await newPage(t);
  await page.goto(`${site.origin}/contact-form.html`);

  const honeypot = page.locator('#contact-website');
  assert.equal(await honeypot.getAttribute('type'), 'text', 'a real text input, not type=hidden');
  assert.equal(await honeypot.getAttribute('tabindex'), '-1');
  assert.equal(await honeypot.getAttribute('autocomplete'), 'off');
  const box = await honeypot.boundingBox();
  assert.ok(box && box.x + box.width <= 0, `the honeypot is left of the viewport, got ${JSON.stringify(box)}`);
  assert.ok(!(await page.locator('body').ariaSnapshot()).includes('Leave this field empty'), 'screen readers do not see it');
  await page.focus('#contact-message');
  await page.keyboard.press('Tab');
  assert.equal(await page.locator(':focus').textContent(), 'Send', 'Tab goes from the message to the button');

  const marker = randomUUID();
  const before = await metrics();
  const since = postbox.logs.length;
  await page.fill('#contact-name', 'Spam Bot');
  await page.fill('#contact-email', `bot-${marker}@example.org`);
  await page.fill('#contact-message', `Cheap watches, best prices! ${marker}`);
  await honeypot.fill('https://spam.example');
  const [request] = await Promise.all([
    page.waitForRequest((candidate) => candidate.url() === `${formsUrl}/contact` && candidate.method() === 'POST'),
    page.waitForURL(`${site.origin}/thanks.html`),
    page.click('button[type=submit]'),
  ]);
  assert.equal((await request.response())?.status(), 303, 'a bot gets the same answer as a person');
  await postbox.waitForLog('the honeypot event', (line) => line.event === 'honeypot' && line.form === '/contact', { since });
  await postbox.waitForLog('the POST request line', (line) => isRequestLine(line, 'POST', '/contact', 303), { since });
  const afterwards = await metrics();
  assert.equal(afterwards.forms['/contact']?.honeypot_blocked, (before.forms['/contact']?.honeypot_blocked ?? 0) + 1);
  assert.equal(afterwards.totals.sent, before.totals.sent);
  assert.ok(!smtp.received.some((mail) => (mail.parsed.text ?? '').includes(marker) || isAddressedTo(mail, `bot-${marker}@example.org`)));
});
