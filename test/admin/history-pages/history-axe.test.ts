// axe-core in a real Chromium on the History pages (docs/admin.md "Posts in git"): the list of a post's versions,
// a version with its text and what changed since (lines marked "removed" and "added"), and a version the same as
// the current one. The admin runs in this process on a loopback socket; no serious or critical violation.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../../e2e/support/axe.js';
import { launchChromium } from '../../e2e/support/browser.js';
import { commitsOf } from '../../support/git-repos.js';
import { listenOnLoopback } from '../../support/loopback-server.js';
import { fieldOf, startGitAdmin, type GitAdmin } from './git-admin.js';

const HELLO = '+++\ntitle = "Hello"\ndate = 2024-05-01\n+++\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n\nSix.\n\nSeven.\n\nEight.\n';

describe('the History pages in Chromium', () => {
  let admin: GitAdmin;
  let browser: Browser;
  let server: { port: number; close(): Promise<void> };
  let cookie: string;

  before(async () => {
    admin = await startGitAdmin({ 'hello.md': HELLO });
    const olga = await admin.as('olga');
    cookie = olga.cookie;
    const editor = await olga.get('/admin/posts/edit?file=hello.md');
    const saved = await olga.post('/admin/posts/save', {
      file: 'hello.md',
      version: fieldOf(editor.body, 'version'),
      base_text: fieldOf(editor.body, 'base_text'),
      title: 'Hello',
      date: '2024-05-01',
      body: 'One, edited.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n\nSix.\n\nSeven.\n\nEight, edited.\n\n',
    });
    assert.equal(saved.statusCode, 303);
    server = await listenOnLoopback(createServer(admin.app.listener));
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await server?.close();
    await admin?.close();
  });

  it('finds no serious or critical violation on any of them', { timeout: 120_000 }, async () => {
    const [newest, first] = await commitsOf(admin.contentDir, 2);
    const context = await browser.newContext();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      await context.addCookies([{ name: 'postbox_admin', value: cookie.split('=')[1]!, url: base }]);
      const page = await context.newPage();
      for (const url of ['/admin/posts/history?file=hello.md', `/admin/posts/history/version?file=hello.md&id=${first!.id}`, `/admin/posts/history/version?file=hello.md&id=${newest!.id}`]) {
        const answer = await page.goto(`${base}${url}`);
        assert.equal(answer?.status(), 200, url);
        assert.deepEqual(await seriousViolations(page), [], url);
      }
      // The diff is styled by its own stylesheet (the CSP runs no inline style): a removed line has its colour.
      await page.goto(`${base}/admin/posts/history/version?file=hello.md&id=${first!.id}`);
      assert.equal(await page.locator('.admin-history-removed').first().evaluate((element) => getComputedStyle(element).backgroundColor), 'rgb(253, 226, 226)');
      // The unchanged front matter before the first change and the unchanged middle are folded into counts.
      assert.equal(await page.locator('.admin-history-folded').count(), 2);
    } finally {
      await context.close();
    }
  });
});
