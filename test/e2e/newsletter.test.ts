// The newsletter signup of docs/embedding.md in a real browser: the confirmation link from the real mail is
// opened in the browser (200, then 410).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { useEnvironment } from './support/environment.js';
import { isRequestLine } from '../support/postbox-process.js';
import { isAddressedTo } from '../support/smtp-server.js';
import { PLACEHOLDERS } from './support/snippets.js';

const OWNER = 'owner@example.com';
const environment = useEnvironment();

test('a signup mails a confirmation link that confirms once in the browser (200), then answers 410', { timeout: 90_000 }, async (t) => {
  const { site, formsUrl, smtp, postbox, dataDir, metrics, newPage } = environment();
  const reader = `reader-${randomUUID()}@example.org`;
  const since = postbox.logs.length;
  const page = await newPage(t);
  await page.goto(`${site.origin}/newsletter-signup.html`);
  await page.fill('#newsletter-email', reader);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${formsUrl}/newsletter` && candidate.request().method() === 'POST'),
    page.click('#newsletter button[type=submit]'),
  ]);
  assert.equal(response.status(), 200);
  assert.deepEqual(await response.json(), { ok: true });
  const status = page.locator('#newsletter .form-status');
  await page.locator('#newsletter .form-status', { hasText: 'Almost done' }).waitFor();
  const signedUpText = await status.textContent();
  await postbox.waitForLog('the preflight', (line) => isRequestLine(line, 'OPTIONS', '/newsletter', 204), { since });

  const confirmation = await smtp.waitForMessage('the confirmation mail', (mail) => isAddressedTo(mail, reader));
  const link = /https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/.exec(confirmation.parsed.text ?? '')?.[0];
  assert.ok(link, `the mail carries the link: ${confirmation.parsed.text}`);
  // The link is built on server.public_url (the doc's https://forms.example.com, as behind a reverse proxy);
  // the browser follows it to the address the service really listens on.
  assert.ok(link.startsWith(`${PLACEHOLDERS.forms}/newsletter/confirm?token=`), link);
  assert.match(new URL(link).searchParams.get('token') ?? '', /^[A-Za-z0-9_-]{43}$/, 'a 256-bit base64url token');
  const local = `${formsUrl}${link.slice(PLACEHOLDERS.forms.length)}`;

  const confirmed = await page.goto(local);
  assert.equal(confirmed?.status(), 200);
  assert.match(confirmed?.headers()['content-type'] ?? '', /^text\/html/);
  // The token is in the address: the page must not be cached nor leak it to pages it links to.
  assert.match(confirmed?.headers()['cache-control'] ?? '', /no-store/);
  assert.equal(confirmed?.headers()['referrer-policy'], 'no-referrer');
  assert.ok(((await page.locator('body').textContent()) ?? '').trim().length > 0, 'a page people can read');
  const lines = (await readFile(path.join(dataDir, 'newsletter-subscribers.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(lines.filter((line) => (JSON.parse(line) as { email: string }).email === reader).length, 1);
  await smtp.waitForMessage('the owner notification', (mail) => isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(reader));

  const reloaded = await page.reload();
  assert.equal(reloaded?.status(), 410, 'a used link answers 410 on reload');
  const secondPage = await newPage(t);
  const secondVisit = await secondPage.goto(local);
  assert.equal(secondVisit?.status(), 410, 'and on a second visit');

  // Signing up again looks exactly like a first signup, and sends nothing.
  const before = await metrics();
  await page.goto(`${site.origin}/newsletter-signup.html`);
  await page.fill('#newsletter-email', reader.toUpperCase());
  const [again] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${formsUrl}/newsletter` && candidate.request().method() === 'POST'),
    page.click('#newsletter button[type=submit]'),
  ]);
  assert.deepEqual([again.status(), await again.json()], [200, { ok: true }]);
  await page.locator('#newsletter .form-status', { hasText: 'Almost done' }).waitFor();
  assert.equal(await page.locator('#newsletter .form-status').textContent(), signedUpText);
  const afterwards = await metrics();
  assert.equal(afterwards.forms['/newsletter']?.duplicate_signup, (before.forms['/newsletter']?.duplicate_signup ?? 0) + 1);
  assert.equal(afterwards.forms['/newsletter']?.confirmation_sent, before.forms['/newsletter']?.confirmation_sent);
});
