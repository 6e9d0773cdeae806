// /admin in a real Chromium against a real `postbox serve`: sign-in with the keyboard only, the Posts page, sign-out,
// no CSP violation, and axe-core on the sign-in and Posts pages with no serious or critical violation.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { POSTS_FIXTURE } from './support/environment.js';

const served = useServedBrowser(
  'e2e-admin',
  async (dir) => ({
    data_dir: path.join(dir, 'data'),
    site: { title: 'Example', base_url: 'http://127.0.0.1' },
    blog: { listen: '127.0.0.1:0', content_dir: POSTS_FIXTURE },
    admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
  }),
  ['blog'],
);

test('a person signs in with the keyboard only, lands on Posts, and signs out; both pages pass axe-core', { timeout: 90_000 }, async (t) => {
  const { postbox, newPage } = served();
  const blogUrl = postbox.addresses.blog as string;
  const page = await newPage(t);
  const context = page.context();
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });

  await page.goto(`${blogUrl}/admin/posts`);
  assert.equal(new URL(page.url()).pathname, '/admin/login');
  assert.equal(await page.title(), 'Sign in · Postbox admin');
  assert.deepEqual(await seriousViolations(page), []);
  // autofocus is applied once the page has settled and has the window's focus: wait for it (bounded), then check.
  await page.bringToFront();
  await page.waitForFunction(() => document.activeElement?.id === 'name', undefined, { timeout: 5000 }).catch(() => undefined);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'name', 'the Name field has the focus');

  await page.keyboard.type('jane');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'password');
  await page.keyboard.type(PASSWORD);
  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts`), page.keyboard.press('Enter')]);
  assert.equal(await page.locator('h1').textContent(), 'Posts');
  assert.match((await page.locator('header').textContent()) ?? '', /Signed in as jane/);
  assert.deepEqual(await seriousViolations(page), []);
  const [cookie] = await context.cookies();
  assert.equal(cookie?.httpOnly, true);
  assert.equal(cookie?.sameSite, 'Strict');
  assert.equal(cookie?.path, '/admin');

  // Tab from the top of the page to "Sign out" and press it.
  let focused = '';
  for (let presses = 0; presses < 10 && focused !== 'Sign out'; presses += 1) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
  }
  assert.equal(focused, 'Sign out');
  await Promise.all([page.waitForURL(`${blogUrl}/admin/login`), page.keyboard.press('Enter')]);
  await page.goto(`${blogUrl}/admin/posts`);
  assert.equal(new URL(page.url()).pathname, '/admin/login', 'signed out: Posts asks for sign-in again');
  assert.ok(postbox.logs.some((line) => line.event === 'admin_sign_out' && line.user === 'jane'));
  assert.deepEqual(cspProblems, []);
});
