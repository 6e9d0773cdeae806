// The dashboard, subscribers and failed-mail pages in a real Chromium against a real `postbox serve` (docs/admin.md
// "Dashboard", "Subscribers", "Failed mail"): submissions go through the real forms endpoint, the dashboard's
// numbers (its table of the chart's days) match them, a subscriber is removed, a failed message is retried, and
// axe-core finds no serious or critical violation on any of the pages.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';

const READERS = ['ann@example.org', 'bob@example.org'];
const SECRET = 'failed.person@example.net';
const FAILED_ID = 'msg_seeded_0';

const served = useServedBrowser(
  'e2e-admin-dashboard',
  async (dir) => {
    const dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'queue', 'failed'), { recursive: true });
    const subscribed = (email: string) => `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), READERS.map(subscribed).join(''));
    const now = Date.now();
    const failed = {
      id: FAILED_ID,
      slot: 'seeded.0',
      created_at: now - 7_200_000,
      failed_at: now - 3_600_000,
      attempts: 6,
      last_error: 'smtp_550',
      message: { channel: 'mail', form: '/contact', kind: 'owner', mail: { from: 'Forms <forms@example.com>', to: SECRET, subject: 'New message', text: `From ${SECRET}`, autoSubmitted: 'auto-generated' } },
    };
    await writeFile(path.join(dataDir, 'queue', 'failed', `${FAILED_ID}.json`), JSON.stringify(failed));
    return {
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: true },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
        { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
      ],
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['forms'],
);

test('a person reads the dashboard, removes a subscriber and retries failed mail; axe-core passes every page', { timeout: 120_000 }, async (t) => {
  const { postbox, newPage, dir } = served();
  const formsUrl = postbox.addresses.forms as string;
  const sent = 4;
  for (let index = 0; index < sent; index += 1) {
    const response = await fetch(`${formsUrl}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Writer ${index}`, email: `writer${index}@example.org`, message: `Message number ${index}` }),
    });
    assert.equal(response.status, 200, await response.text());
  }
  const page = await newPage(t);
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });
  const checkPage = async (name: string) => assert.deepEqual(await seriousViolations(page), [], `axe-core on ${name}`);

  await page.goto(`${formsUrl}/admin`);
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${formsUrl}/admin`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Dashboard');
  const today = new Date().toISOString().slice(0, 10);
  const chart = page.getByRole('img', { name: /Submissions per day to \/contact/ });
  assert.match((await chart.getAttribute('aria-labelledby')) ?? '', /summary/);
  assert.match((await page.locator('figcaption', { hasText: '/contact' }).textContent()) ?? '', new RegExp(`${sent} submissions in 30 days, most on ${today} \\(${sent}\\)`));
  const rows = await page.locator('table:has(caption:text("Submissions per day to /contact")) tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(rows.length, 30);
  assert.deepEqual(rows.at(-1), [today, String(sent)]);
  assert.equal(rows.reduce((sum, row) => sum + Number(row[1]), 0), sent);
  const archived = (await readFile(path.join(dir, 'data', 'contact.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(archived.length, sent, 'the chart counts what the archive holds');
  await checkPage('the dashboard');
  await page.locator('details summary', { hasText: 'The numbers' }).first().click();
  await checkPage('the dashboard with the numbers open');

  await Promise.all([page.waitForURL(`${formsUrl}/admin/subscribers`), page.getByRole('link', { name: 'Subscribers', exact: true }).click()]);
  await checkPage('the subscribers overview');
  await Promise.all([page.waitForURL(`${formsUrl}/admin/subscribers/newsletter`), page.getByRole('link', { name: '/newsletter' }).click()]);
  await checkPage('the subscribers of /newsletter');
  // Removing asks first: the page names the address, and its Delete button removes it.
  await page.getByRole('button', { name: 'Remove bob@example.org' }).click();
  await page.getByRole('heading', { name: 'Remove bob@example.org from /newsletter?' }).waitFor();
  await checkPage('the question before removing a subscriber');
  await Promise.all([page.waitForURL(/notice=removed$/), page.getByRole('button', { name: 'Delete' }).click()]);
  assert.match((await page.getByRole('status').textContent()) ?? '', /The subscriber was removed/);
  assert.equal(await page.getByRole('cell', { name: 'bob@example.org' }).count(), 0);
  await checkPage('the subscribers after a removal');

  await Promise.all([page.waitForURL(`${formsUrl}/admin/failed`), page.getByRole('link', { name: 'Failed mail' }).click()]);
  assert.ok(!(await page.content()).includes('@'), 'no address on the failed-mail page');
  assert.equal(await page.getByRole('cell', { name: FAILED_ID, exact: true }).count(), 1);
  await checkPage('failed mail');
  await Promise.all([page.waitForURL(/notice=retried$/), page.getByRole('button', { name: `Retry ${FAILED_ID}` }).click()]);
  assert.match((await page.locator('main').textContent()) ?? '', /No failed mail/);
  await checkPage('failed mail after a retry');
  assert.deepEqual(cspProblems, []);
});
