// The post editor's hints, limits and layout in a real Chromium against a real `postbox serve` (docs/admin.md
// "Posts"): the keys hint names ⌘B, the image upload names its limit and the script refuses a larger image before
// sending it, with the typed text kept; the page never scrolls sideways at 1,280 or 390 px; a Publish that fails
// on a field problem still offers Publish.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { createTempDir } from '../support/temp-dir.js';
import { useServedBrowser } from './support/served-browser.js';

/** More than the default `[admin] max_upload_bytes` (10 MiB): a photo straight from a camera, as a file on disk. */
async function largeImage(t: TestContext): Promise<string> {
  const { dir, remove } = await createTempDir('large-image');
  t.after(remove);
  const file = path.join(dir, 'camera.jpg');
  await writeFile(file, Buffer.alloc(18_000_000, 0xff));
  return file;
}

const served = useServedBrowser(
  'e2e-admin-editor-limits',
  async (dir) => {
    const posts = path.join(dir, 'posts');
    await mkdir(posts);
    await writeFile(path.join(posts, 'harbour.md'), '+++\ntitle = "Harbour notes"\ndate = 2025-03-01\n+++\nBoats at dawn.\n');
    await writeFile(path.join(posts, 'pending.md'), '+++\ntitle = "Pending"\ndate = 2025-03-02\ndraft = true\n+++\nNot yet.\n');
    return {
      data_dir: path.join(dir, 'data'),
      site: { title: 'Example', base_url: 'https://blog.example' },
      blog: { listen: '127.0.0.1:0', content_dir: posts },
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['blog'],
);

async function signedIn(t: TestContext, next: string): Promise<{ page: Page; base: string }> {
  const { postbox, newPage } = served();
  const base = postbox.addresses.blog as string;
  const page = await newPage(t);
  await page.goto(`${base}${next}`);
  await page.getByLabel('Name', { exact: true }).fill('jane');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL(`${base}${next}`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  await page.getByRole('toolbar', { name: 'Formatting' }).waitFor();
  return { page, base };
}

test('the keys hint shows ⌘B, and an image over the limit is named before and refused before it is sent, the typed text kept', { timeout: 90_000 }, async (t) => {
  const { page, base } = await signedIn(t, '/admin/posts/edit?file=harbour.md');
  const image = await largeImage(t);
  const hint = (await page.locator('[data-editor-keys]').textContent()) ?? '';
  assert.match(hint, /Ctrl\+B \(\u2318B on a Mac\)/);
  assert.doesNotMatch(hint, /\\u/);
  assert.match(hint, /Paste or drop an image \(at most 10\.5 MB\)/);

  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/admin/posts/upload')) uploads.push(request.url());
  });
  const text = page.getByLabel('Text (Markdown)');
  await text.fill('Boats at dawn, and gulls.\n');
  const input = page.getByLabel('Image (PNG, JPEG, GIF, WebP or AVIF, at most 10.5 MB)');
  await input.setInputFiles(image);
  await page.getByRole('button', { name: 'Upload image' }).click();
  const message = page.locator('[data-editor-message]');
  await message.filter({ hasText: 'larger than' }).waitFor();
  assert.match((await message.textContent()) ?? '', /camera\.jpg is 18\.0 MB, larger than the 10\.5 MB the admin takes/);
  assert.equal(page.url(), `${base}/admin/posts/edit?file=harbour.md`, 'the page stays');
  assert.equal(await text.inputValue(), 'Boats at dawn, and gulls.\n', 'the typed text stays');

  // The toolbar's Image button (its file picker) refuses it the same way.
  await page.evaluate(() => {
    const element = document.querySelector('[data-editor-message]');
    if (element) element.textContent = '';
  });
  await page.locator('[data-image-picker]').setInputFiles(image);
  await message.filter({ hasText: 'larger than' }).waitFor();
  assert.equal(await text.inputValue(), 'Boats at dawn, and gulls.\n');
  assert.deepEqual(uploads, [], 'nothing was sent');
});

test('the editor never scrolls sideways at 1,280 or 390 px', { timeout: 60_000 }, async (t) => {
  const { page } = await signedIn(t, '/admin/posts/edit?file=harbour.md');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(sizes.scroll <= sizes.client, `at ${width} px: ${sizes.scroll} > ${sizes.client}`);
  }
});

test('a Publish that fails on a field problem still offers Publish, not Unpublish', { timeout: 60_000 }, async (t) => {
  const { page } = await signedIn(t, '/admin/posts/edit?file=pending.md');
  await page.getByLabel('Language', { exact: true }).fill('not a language');
  await Promise.all([page.waitForURL(/\/admin\/posts\/publish$/), page.getByRole('button', { name: 'Publish', exact: true }).click()]);
  assert.match((await page.locator('main').textContent()) ?? '', /is not a language code/);
  assert.equal(await page.getByRole('button', { name: 'Publish', exact: true }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Unpublish', exact: true }).count(), 0);
});
