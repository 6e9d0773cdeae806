// axe-core in a real Chromium on /admin/comments (docs/comments.md "Moderating in /admin"): the page with comments
// waiting, published and taken for spam, with a notice, the delete confirmation, and the page when comments are
// off. The admin runs in this process on a loopback socket; no serious or critical violation on any of them.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { createCommentsPages } from '../../src/admin/comments-pages/comments-pages.js';
import { seriousViolations } from '../e2e/support/axe.js';
import { launchChromium } from '../e2e/support/browser.js';
import { createTestClock } from '../support/clock.js';
import { storedComment } from '../support/comment-store-contract.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

describe('/admin/comments in Chromium', () => {
  let browser: Browser;
  let app: TestAdmin;
  let server: { port: number; close(): Promise<void> };
  let cookie: string;
  let remove: () => Promise<void>;

  before(async () => {
    const temp = await createTempDir('comments-axe');
    remove = temp.remove;
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const store = createCommentFiles(dataDir);
    await store.add(storedComment('hello', 'w1', 1, { text: 'Waiting <b>here</b>\nwith two lines' }));
    await store.add(storedComment('hello', 'p1', 2, { status: 'published', author: { name: 'Bob', url: null } }));
    await store.add(storedComment('other', 's1', 3, { status: 'spam', reasons: ['links'] }));
    const pages = [
      ...createCommentsPages({ store, authorOf: () => null, audit: async () => undefined }),
      ...createCommentsPages({ store: undefined, authorOf: () => null, audit: async () => undefined }).map((route) => ({ ...route, path: '/admin/comments-off' })),
    ];
    app = await startTestAdmin({ dataDir, pages, clock: createTestClock() });
    cookie = (await signIn(app)).id;
    server = await listenOnLoopback(createServer(app.listener));
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await server?.close();
    await app?.close();
    await remove?.();
  });

  it('finds no serious or critical violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      await context.addCookies([{ name: 'postbox_admin', value: cookie, url: base }]);
      const page = await context.newPage();
      for (const url of ['/admin/comments?notice=approved', '/admin/comments?post=hello', '/admin/comments-off']) {
        const answer = await page.goto(`${base}${url}`);
        assert.equal(answer?.status(), 200, url);
        assert.deepEqual(await seriousViolations(page), [], url);
      }
      await page.goto(`${base}/admin/comments`);
      await page.getByRole('button', { name: 'Delete the comment of Bob' }).click();
      await page.waitForURL(`${base}/admin/comments`);
      assert.match(await page.title(), /Delete the comment of Bob\?/);
      assert.deepEqual(await seriousViolations(page), [], 'the confirmation');
    } finally {
      await context.close();
    }
  });
});
