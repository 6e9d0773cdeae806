// The newsletter's button pages in a real Chromium against a real `postbox serve` (docs/newsletter.md "Confirming with
// a button" and "Leaving the list"): with `confirm = "button"` the link from the real confirmation mail shows a button
// and a scanner's GET or HEAD changes nothing; the click confirms. The unsubscribe link likewise: GET and HEAD change
// nothing, the button unsubscribes. axe-core finds no serious violation on any of the four pages.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { simpleParser } from 'mailparser';
import { createUnsubscribeToken } from '../../src/newsletter/unsubscribe-token.js';
import { waitFor } from '../support/wait.js';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';

const READER = 'grace@example.org';
const served = useServedBrowser(
  'e2e-newsletter-buttons',
  (dir) => ({
    data_dir: path.join(dir, 'data'),
    server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
    mail: { from: 'News <news@example.com>', to: 'owner@example.com' },
    forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], confirm: 'button' }],
  }),
  ['forms'],
);

const dataDir = () => path.join(served().dir, 'data');
const subscriberLog = () => readFile(path.join(dataDir(), 'newsletter-subscribers.jsonl'), 'utf8').catch(() => '');

test('a person confirms with the button and unsubscribes with the button; scanners change nothing', { timeout: 90_000 }, async (t) => {
  const { postbox, newPage } = served();
  const formsUrl = postbox.addresses.forms as string;
  const signup = await fetch(`${formsUrl}/newsletter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: READER }) });
  assert.equal(signup.status, 200);
  const mailText = await waitFor('the confirmation mail in the outbox', async () => {
    const names = (await readdir(path.join(dataDir(), 'outbox')).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    return names[0] && (await simpleParser(await readFile(path.join(dataDir(), 'outbox', names[0])))).text;
  });
  const token = /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mailText ?? '')?.[1];
  assert.ok(token, mailText);
  const confirmUrl = `${formsUrl}/newsletter/confirm?token=${token}`;

  // A link scanner fetches the link: nothing is confirmed.
  // HEAD is not served on these paths (405): a link checker's HEAD redeems nothing either way.
  assert.ok([200, 405].includes((await fetch(confirmUrl, { method: 'HEAD' })).status));
  assert.equal((await fetch(confirmUrl)).status, 200);
  assert.equal(await subscriberLog(), '');

  const page = await newPage(t);
  await page.goto(confirmUrl);
  assert.equal(await page.locator('h1').textContent(), 'Confirm your subscription');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the confirm button page');
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Confirm subscription' }).click()]);
  await page.locator('h1', { hasText: 'Subscription confirmed' }).waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the confirmed page');
  assert.match(await subscriberLog(), /"event":"subscribed".*grace@example\.org/);

  const secret = await readFile(path.join(dataDir(), 'newsletter-secret'));
  const unsubscribeUrl = `${formsUrl}/newsletter/unsubscribe?token=${createUnsubscribeToken(secret, '/newsletter', READER)}`;
  assert.ok([200, 405].includes((await fetch(unsubscribeUrl, { method: 'HEAD' })).status));
  assert.equal((await fetch(unsubscribeUrl)).status, 200);
  assert.doesNotMatch(await subscriberLog(), /unsubscribed/, 'a scanner unsubscribes nobody');

  await page.goto(unsubscribeUrl);
  assert.equal(await page.locator('h1').textContent(), 'Unsubscribe');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the unsubscribe page');
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
  await page.locator('h1', { hasText: 'You are unsubscribed' }).waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the unsubscribed page');
  assert.match(await subscriberLog(), /"event":"unsubscribed".*grace@example\.org/);
});
