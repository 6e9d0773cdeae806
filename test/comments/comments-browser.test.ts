// The plain HTML form of docs/comments.md "A form without script" in a real Chromium with script off: a page of an
// allowed origin posts a comment to the blog listener on another origin, and the browser lands back on that page
// at `#comment-pending`, whose notice the page shows with `:target`.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { RunningServer } from '../../src/http/http-server.js';
import { launchChromium } from '../e2e/support/browser.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

/** The page of the docs' form, posting to `api`. */
function pageHtml(api: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hello</title>
<meta name="referrer" content="no-referrer-when-downgrade">
<style>#comment-pending { display: none } #comment-pending:target { display: block }</style></head>
<body>
<form method="post" action="${api}/api/blog/posts/hello/comments">
  <label>Name <input name="name" required maxlength="100"></label>
  <label>Email (not shown) <input name="email" type="email"></label>
  <label>Web site <input name="url" type="url"></label>
  <label>Comment <textarea name="text" required maxlength="10000"></textarea></label>
  <input name="parent" type="hidden" value="">
  <div hidden><label>Leave empty <input name="website" tabindex="-1" autocomplete="off"></label></div>
  <button type="submit">Send</button>
</form>
<p id="comment-pending">Thank you: your comment waits for approval.</p>
</body></html>`;
}

describe('the comment form without script, in Chromium', () => {
  let browser: Browser;
  let site: { port: number; close(): Promise<void> };
  let app: CommentsApp;
  let api: RunningServer;
  let pageUrl: string;

  before(async () => {
    let apiAddress = '';
    site = await listenOnLoopback(createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(apiAddress))));
    const siteOrigin = `http://127.0.0.1:${site.port}`;
    pageUrl = `${siteOrigin}/blog/hello/`;
    app = await startCommentsApp({ moderation: 'first', allowed_origins: [siteOrigin] });
    api = await app.service.listen();
    apiAddress = api.address;
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await api?.close(0);
    await app?.close();
    await site?.close();
  });

  it('lands back on the page at #comment-pending, and the comment waits for approval', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(pageUrl);
      await page.getByLabel('Name').fill('Ada');
      await page.getByLabel('Email (not shown)').fill('ada@example.org');
      await page.getByLabel('Comment').fill('Sent from a page without script.');
      await Promise.all([page.waitForURL(`${pageUrl}#comment-pending`), page.getByRole('button', { name: 'Send' }).click()]);
      assert.equal(await page.locator('#comment-pending').isVisible(), true);
      const listed = await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' });
      assert.equal((listed.json() as { total: number }).total, 0, 'it waits');
      const { cookie } = await app.signIn('jane');
      const admin = await app.service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie } });
      assert.match(admin.body, /Sent from a page without script\./);
    } finally {
      await context.close();
    }
  });
});
