// /admin/account in a real Chromium against a real `postbox serve`: sign in, set up TOTP from the secret the page
// shows (the code computed here with otpauth, as an authenticator app would), sign out, and sign in again with the
// password and then a code. axe-core runs on every page visited, with no serious or critical violation, and no
// page breaks the Content Security Policy (the QR code is an image the CSP allows).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { POSTS_FIXTURE } from './support/environment.js';

const served = useServedBrowser(
  'e2e-admin-account',
  async (dir) => ({
    data_dir: path.join(dir, 'data'),
    site: { title: 'Example', base_url: 'http://127.0.0.1' },
    blog: { listen: '127.0.0.1:0', content_dir: POSTS_FIXTURE },
    admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
  }),
  ['blog'],
);

/** The code of `secret` one step after now: the step the set-up took is never taken again, the next one is. */
function nextCode(secret: string): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + 30_000 });
}

test('a person sets up TOTP from the shown secret, signs out, and signs in again with the code; every page passes axe-core', { timeout: 120_000 }, async (t) => {
  const { postbox, newPage } = served();
  const blogUrl = postbox.addresses.blog as string;
  const page = await newPage(t);
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });
  const checked = async (title: string) => {
    assert.equal(await page.title(), `${title} · Postbox admin`);
    assert.deepEqual(await seriousViolations(page), [], `axe-core on "${title}"`);
  };
  const signInWithPassword = async (p: Page) => {
    await p.getByLabel('Name', { exact: true }).fill('jane');
    await p.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  };

  await page.goto(`${blogUrl}/admin/account`);
  await checked('Sign in');
  await signInWithPassword(page);
  await page.waitForURL(`${blogUrl}/admin/account`);
  await checked('Your account');
  assert.match((await page.locator('main').textContent()) ?? '', /set in the configuration/);

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await page.locator('h1', { hasText: 'Set up an authenticator app' }).waitFor();
  await checked('Set up an authenticator app');
  assert.equal(await page.locator('img[alt^="QR code"]').evaluate((image) => (image as HTMLImageElement).naturalWidth > 0), true, 'the QR code is shown');
  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s/g, '');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await page.getByLabel('The 6-digit code the app shows now').fill(TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.locator('h1', { hasText: 'Recovery codes' }).waitFor();
  await checked('Recovery codes');
  assert.equal(await page.locator('main ol li code').count(), 10);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${blogUrl}/admin/login`);
  await checked('Sign in');
  await signInWithPassword(page);
  await page.locator('h1', { hasText: 'Second step' }).waitFor();
  await checked('Second step');
  assert.equal(new URL(page.url()).pathname, '/admin/login', 'the password alone signed nobody in');
  await page.getByLabel('Code', { exact: true }).fill(nextCode(secret));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${blogUrl}/admin`);
  await checked('Dashboard');
  assert.match((await page.locator('header').textContent()) ?? '', /Signed in as jane/);
  assert.ok(postbox.logs.some((line) => line.event === 'admin_sign_in' && line.user === 'jane' && line.via === 'totp'));
  assert.deepEqual(cspProblems, []);
});
