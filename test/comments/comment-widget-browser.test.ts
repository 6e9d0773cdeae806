// The comment widget in a real Chromium (docs/comments.md "The widget"): a page on another origin loads
// /comments.js from the blog listener, shows the approved thread (replies indented five levels at most), answers a
// comment with the keyboard alone, solves the proof of work and is told the comment is pending; it then waits for
// approval (it was not taken for spam). axe-core finds nothing, and the page asked nothing of any other origin.
// The service runs on the test's clock: a person's time is the clock moved by `min_seconds`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { solve, type Challenge } from '../../src/comments/browser/proof-of-work.js';
import type { RunningServer } from '../../src/http/http-server.js';
import { launchChromium } from '../e2e/support/browser.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

/** `min_seconds` of [blog.comments.spam] (the default). */
const MIN_SECONDS = 3;
const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

function pageHtml(api: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hello</title>
<script type="module" src="${api}/comments.js"></script>
<style>postbox-comments { --postbox-accent: #0b5394 }</style></head>
<body><main><h1>Hello</h1><p>Hello there.</p>
<postbox-comments post="hello" lang="en"></postbox-comments>
</main></body></html>`;
}

describe('the comment widget in Chromium', () => {
  let browser: Browser;
  let site: { port: number; close(): Promise<void> };
  let siteOrigin: string;
  let app: CommentsApp;
  let api: RunningServer;
  let admin: { cookie: string; csrf: string };

  /** Posts a comment with its proof of work done as the widget does it, and approves it in /admin. */
  const seed = async (fields: Record<string, string>): Promise<string> => {
    const challenge = await app.service.inject({ method: 'GET', url: '/api/blog/comments/challenge', headers: { origin: siteOrigin } });
    const altcha = await solve(challenge.json() as Challenge);
    app.clock.advance(MIN_SECONDS * 1000);
    const posted = await app.post('hello', { ...fields, altcha }, { origin: siteOrigin });
    const { id } = posted.json() as { id: string };
    const approved = await app.service.inject({
      method: 'POST',
      url: '/admin/comments',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: admin.csrf, slug: 'hello', lang: 'en', action: 'approve', id }).toString(),
    });
    assert.equal(approved.headers.location, '/admin/comments?notice=approved');
    return id;
  };

  before(async () => {
    let apiAddress = '';
    site = await listenOnLoopback(createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(apiAddress))));
    siteOrigin = `http://127.0.0.1:${site.port}`;
    app = await startCommentsApp({ moderation: 'all', rate_limit_per_hour: 100, allowed_origins: [siteOrigin], spam: { proof_of_work: true } });
    api = await app.service.listen();
    apiAddress = api.address;
    admin = await app.signIn('jane');
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await api?.close(0);
    await app?.close();
    await site?.close();
  });

  it('shows the thread, sends a reply with its proof of work, says it is pending, and asks no other origin', { timeout: 120_000 }, async () => {
    const ada = await seed({ name: 'Ada', text: 'The first comment.' });
    let parent = ada;
    const chain: string[] = [];
    for (let level = 1; level <= 7; level++) {
      parent = await seed({ name: `Reply ${level}`, text: `A reply at level ${level}.`, parent });
      chain.push(parent);
    }
    await seed({ name: 'Cleo', url: 'https://cleo.example/', text: 'Another *thought*.' });

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${siteOrigin}/blog/hello/`);
      await page.getByRole('heading', { name: '9 comments' }).waitFor();

      const levels = await page.evaluate((ids) => {
        const root = document.querySelector('postbox-comments')!.shadowRoot!;
        return ids.map((id) => {
          let count = 0;
          for (let node = root.getElementById(`comment-${id}`)?.parentElement; node; node = node.parentElement) if (node.tagName === 'OL') count += 1;
          return count - 1;
        });
      }, [ada, ...chain]);
      assert.deepEqual(levels, [0, 1, 2, 3, 4, 5, 5, 5], 'indented five levels at most');
      const cleo = page.getByRole('link', { name: 'Cleo' });
      assert.equal(await cleo.getAttribute('href'), 'https://cleo.example/');
      assert.equal(await cleo.getAttribute('rel'), 'nofollow ugc');
      assert.equal(await page.locator('postbox-comments em').textContent(), 'thought');

      // With the keyboard: Reply moves to the comment field, the work starts there, Send is pressed with Enter.
      const challenge = page.waitForResponse((response) => response.url() === `${api.address}/api/blog/comments/challenge`);
      await page.getByRole('button', { name: 'Reply to Ada' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => (document.querySelector('postbox-comments')!.shadowRoot!.activeElement as HTMLTextAreaElement).name), 'text');
      await page.getByText('Replying to Ada.').waitFor();
      assert.equal((await challenge).status(), 200);
      await page.keyboard.type('Sent by the widget.');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type('Grace');
      assert.equal(await page.getByLabel('Name').inputValue(), 'Grace');
      app.clock.advance(MIN_SECONDS * 1000);
      await page.getByRole('button', { name: 'Send' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Thank you: your comment is pending, it waits for approval.').waitFor({ timeout: 60_000 });

      const waiting = await app.service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie: admin.cookie } });
      const section = /Waiting for approval \(1\)([\s\S]*?)<h2/.exec(waiting.body)?.[1] ?? '';
      assert.match(section, /Sent by the widget\./, 'it waits for a person: the proof of work passed');

      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; help: string }> }> } }).axe;
        return (await axe.run()).violations.map((violation) => `${violation.id}: ${violation.help}`);
      });
      assert.deepEqual(violations, []);

      const origins = new Set(requested.map((url) => new URL(url).origin));
      assert.deepEqual([...origins].sort(), [siteOrigin, api.address].sort());
      assert.ok(requested.includes(`${api.address}/comments.js`));
    } finally {
      await context.close();
    }
  });

  it('shows the kind of a webmention beside its author, without a Reply button', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // The thread as the API gives it once webmentions are published beside comments.
      const thread = {
        comments: [
          { id: 'w1', parent: null, author: { name: 'Elsewhere', url: 'https://elsewhere.example/post' }, html: '<p>Liked this.</p>', created_at: '2026-01-02T10:00:00.000Z', kind: 'like' },
          { id: 'c1', parent: null, author: { name: 'Ada', url: null }, html: '<p>A comment.</p>', created_at: '2026-01-03T10:00:00.000Z', kind: 'comment' },
        ],
        total: 2,
      };
      await page.route(`${api.address}/api/blog/posts/hello/comments?lang=en`, (route) => route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify(thread) }));
      await page.goto(`${siteOrigin}/blog/hello/`);
      await page.getByRole('heading', { name: '2 comments' }).waitFor();
      assert.equal(await page.locator('postbox-comments #comment-w1 .kind').textContent(), 'like');
      assert.equal(await page.getByRole('button', { name: 'Reply to Elsewhere' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Reply to Ada' }).count(), 1);
    } finally {
      await context.close();
    }
  });
});
