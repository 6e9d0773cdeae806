// Passkeys in a real Chromium against a real `postbox serve`, with the DevTools protocol's virtual authenticator
// (CTAP2, built in, resident keys, user verification that always succeeds): sign in with the password, add a
// passkey on /admin/account/passkeys, sign out, then "Sign in with a passkey" without typing a name and land signed
// in. WebAuthn needs a secure context and a domain as RP ID: the pages are opened at http://localhost. axe-core runs
// on every page, and no CSP violation may be reported.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { POSTS_FIXTURE } from './support/environment.js';

const served = useServedBrowser(
  'e2e-admin-passkey',
  async (dir) => ({
    data_dir: path.join(dir, 'data'),
    site: { title: 'Example', base_url: 'http://localhost' },
    blog: { listen: '127.0.0.1:0', content_dir: POSTS_FIXTURE },
    admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
  }),
  ['blog'],
);

test('a person adds a passkey, signs out, and signs in with it without typing a name', { timeout: 120_000 }, async (t) => {
  const { postbox, newPage } = served();
  // http://localhost is a secure context, and "localhost" a valid RP ID (an IP address is not).
  const base = (postbox.addresses.blog as string).replace('127.0.0.1', 'localhost');
  const page = await newPage(t);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  // Sign in with the password, on the way to the passkeys page.
  await page.goto(`${base}/admin/account/passkeys`);
  assert.equal(new URL(page.url()).pathname, '/admin/login');
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await passkeyButton.waitFor({ state: 'visible' });
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${base}/admin/account/passkeys`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Passkeys');
  assert.equal(await page.locator('[data-passkey-unsupported]').isHidden(), true, 'the script says nothing is missing');
  assert.deepEqual(await seriousViolations(page), []);

  // Add a passkey: the browser's ceremony runs against the virtual authenticator.
  await page.getByLabel('Name of the passkey').fill('Test laptop');
  await Promise.all([page.waitForURL(`${base}/admin/account/passkeys?notice=added`), page.getByRole('button', { name: 'Add a passkey' }).click()]);
  assert.match((await page.getByRole('status').first().textContent()) ?? '', /The passkey was added/);
  assert.equal(await page.locator('table.admin-table td').first().textContent(), 'Test laptop');
  assert.deepEqual(await seriousViolations(page), []);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0]?.isResidentCredential, true, 'a discoverable credential');
  assert.equal(credentials[0]?.rpId, 'localhost');
  assert.ok(postbox.logs.some((line) => line.event === 'admin_passkey_added' && line.user === 'jane'));

  // Sign out, then sign in with the passkey alone: no name typed.
  await Promise.all([page.waitForURL(`${base}/admin/login`), page.getByRole('button', { name: 'Sign out' }).click()]);
  assert.equal(await page.getByLabel('Name').inputValue(), '');
  await passkeyButton.waitFor({ state: 'visible' });
  await Promise.all([page.waitForURL(`${base}/admin`), passkeyButton.click()]);
  assert.match((await page.locator('header').textContent()) ?? '', /Signed in as jane/);
  assert.deepEqual(await seriousViolations(page), []);
  assert.ok(postbox.logs.some((line) => line.event === 'admin_sign_in' && line.user === 'jane' && line.via === 'passkey'));
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.ok((after.credentials[0]?.signCount ?? 0) >= 1, 'the authenticator signed once more');

  // The passkeys page shows when it was last used.
  await page.goto(`${base}/admin/account/passkeys`);
  assert.doesNotMatch((await page.locator('table.admin-table').textContent()) ?? '', /Never/);
  assert.deepEqual(problems, []);
});
