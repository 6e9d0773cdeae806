// /admin in a real Chromium against a real `postbox serve` (docs/forms-api.md "HTTP details"): the icon a page names
// is answered and decodes, the console shows no error, and the log has no 404 nor any error for /favicon.ico.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { testHash } from '../admin/admin-app.js';
import { POSTS_FIXTURE } from './support/environment.js';
import { useServedBrowser } from './support/served-browser.js';

const served = useServedBrowser(
  'e2e-favicon',
  async (dir) => ({
    data_dir: path.join(dir, 'data'),
    site: { title: 'Example', base_url: 'http://127.0.0.1' },
    blog: { listen: '127.0.0.1:0', content_dir: POSTS_FIXTURE },
    admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
  }),
  ['blog'],
);

test('an admin page gets its icon and no console error; the icon is no 404 in the log', { timeout: 60_000 }, async (t) => {
  const { postbox, newPage } = served();
  const blogUrl = postbox.addresses.blog as string;
  const page = await newPage(t);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${blogUrl}/admin/login`);
  // A headful Chromium fetches the icon a page names in the background (headless does not): load it as the page's
  // own image instead, under the page's content security policy. A 404 would show as a console error.
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  assert.equal(href, '/favicon.ico');
  const size = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const image = new Image();
        image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
        image.onerror = () => resolve('not an image');
        image.src = url;
      }),
    href,
  );
  assert.equal(size, '16x16', 'Chromium decodes the icon');
  const response = await page.request.get(`${blogUrl}/favicon.ico`);
  assert.equal(response.status(), 200);
  assert.equal(response.headers()['content-type'], 'image/x-icon');
  assert.deepEqual(consoleErrors, []);

  const lines = await postbox.waitForLog('the request line of the icon', (line) => line.msg === 'request' && line.path === '/favicon.ico');
  assert.equal(lines.status, 200);
  assert.deepEqual(postbox.logs.filter((line) => Number(line.level) >= 40), [], 'no warning, no error');
});
