// Webmentions received (docs/comments.md "Webmentions") through the composed blog service, their sources served by
// a real server on loopback: verification, update and removal, refusals, the per-host limit and the Link header.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { HOUR_MS } from '../support/clock.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { SITE_ORIGIN, startCommentsApp, type CommentsApp } from './comments-app.js';

const TARGET = `${SITE_ORIGIN}/blog/hello`;

let app: CommentsApp | undefined;
let site: { port: number; close(): Promise<void> } | undefined;
afterEach(async () => {
  await app?.close();
  await site?.close();
  app = undefined;
  site = undefined;
});

/** The pages of the source site: path -> status and HTML; changed by the tests between webmentions. */
const pages = new Map<string, { status: number; html: string }>();

async function startSite(): Promise<string> {
  pages.clear();
  site = await listenOnLoopback(
    createServer((request, response) => {
      const page = pages.get(request.url ?? '') ?? { status: 404, html: 'not here' };
      response.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    }),
  );
  return `http://127.0.0.1:${site.port}`;
}

const reply = (target: string) => `<!doctype html><title>A reply</title>
<article class="h-entry">
  <a class="p-author h-card" href="/about">Grace Hopper</a>
  <a class="u-in-reply-to" href="${target}">in reply to</a>
  <div class="e-content">I <strong>agree</strong>.<script>alert(1)</script></div>
  <time class="dt-published" datetime="2026-11-28T09:00:00Z">yesterday</time>
</article>`;

async function send(source: string, target = TARGET) {
  return app!.service.inject({
    method: 'POST',
    url: '/webmention',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ source, target }).toString(),
  });
}

/** The status of a webmention once it is no longer pending (asked again at most 250 times, 20 ms apart). */
async function settledStatus(location: string): Promise<{ status: string; reason?: string }> {
  const path = new URL(location).pathname;
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const answer = (await app!.service.inject({ method: 'GET', url: path })).json() as { status: string; reason?: string };
    if (answer.status !== 'pending') return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the webmention stayed pending');
}

async function received(source: string): Promise<{ status: string; reason?: string }> {
  const answer = await send(source);
  assert.equal(answer.statusCode, 202, answer.body);
  return settledStatus(answer.headers.location as string);
}

const thread = async () => (await app!.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { comments: Array<Record<string, unknown>>; total: number };

describe('webmentions received', () => {
  it('keeps a reply with its author after verification, updates it when sent again, and removes it on 410', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ moderation: 'none', webmention_private_sources: true });
    pages.set('/reply', { status: 200, html: reply(TARGET) });
    const accepted = await send(`${origin}/reply`);
    assert.equal(accepted.statusCode, 202);
    assert.match(accepted.headers.location as string, /^https:\/\/blog\.example\.com\/webmention\/[0-9a-f]+$/);
    assert.deepEqual(await settledStatus(accepted.headers.location as string), { status: 'accepted' });

    const first = await thread();
    assert.equal(first.total, 1);
    const comment = first.comments[0]!;
    assert.equal(comment.kind, 'reply');
    assert.deepEqual(comment.author, { name: 'Grace Hopper', url: `${origin}/about` });
    assert.match(comment.html as string, /<strong>agree<\/strong>/);
    assert.doesNotMatch(comment.html as string, /script/);

    pages.set('/reply', { status: 200, html: reply(TARGET).replace('agree', 'disagree') });
    assert.equal((await received(`${origin}/reply`)).status, 'accepted');
    const updated = await thread();
    assert.equal(updated.total, 1);
    assert.equal(updated.comments[0]!.id, comment.id);
    assert.match(updated.comments[0]!.html as string, /disagree/);

    pages.set('/reply', { status: 410, html: 'gone' });
    assert.equal((await received(`${origin}/reply`)).status, 'refused');
    assert.equal((await thread()).total, 0);
  });

  it('refuses a source that does not link to the target, and removes an earlier one that no longer does', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ moderation: 'none', webmention_private_sources: true });
    pages.set('/like', { status: 200, html: `<div class="h-entry"><a class="u-like-of" href="${TARGET}#top">liked</a></div>` });
    pages.set('/other', { status: 200, html: '<div class="h-entry"><a href="https://elsewhere.example/">elsewhere</a></div>' });
    assert.equal((await received(`${origin}/like`)).status, 'accepted');
    assert.equal((await thread()).comments[0]!.kind, 'like');

    const refused = await received(`${origin}/other`);
    assert.deepEqual(refused, { status: 'refused', reason: 'The source does not link to the target.' });

    pages.set('/like', { status: 200, html: '<p>nothing now</p>' });
    assert.equal((await received(`${origin}/like`)).status, 'refused');
    assert.equal((await thread()).total, 0);
  });

  it('holds a webmention for moderation under "first" until its host had one approved', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ webmention_private_sources: true });
    pages.set('/mention', { status: 200, html: `<p>See <a href="${TARGET}">this</a>.</p>` });
    assert.equal((await received(`${origin}/mention`)).status, 'accepted');
    assert.equal((await thread()).total, 0);
  });

  it('refuses private sources by default: a loopback literal at the POST', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ moderation: 'none' });
    pages.set('/reply', { status: 200, html: reply(TARGET) });
    const answer = await send(`${origin}/reply`);
    assert.equal(answer.statusCode, 400);
    assert.match(answer.body, /private/);
    const named = await send(`http://localhost:${site!.port}/reply`);
    assert.equal(named.statusCode, 400);
  });

  it('answers 400 to a target that is not a post taking comments, a source that is not http, or the same URLs', async () => {
    app = await startCommentsApp({ moderation: 'none', webmention_private_sources: true });
    for (const [source, target] of [
      ['https://a.example/post', `${SITE_ORIGIN}/blog/quiet`],
      ['https://a.example/post', `${SITE_ORIGIN}/blog/draft`],
      ['https://a.example/post', 'https://elsewhere.example/blog/hello'],
      ['ftp://a.example/post', TARGET],
      [TARGET, TARGET],
    ] as const) {
      assert.equal((await send(source, target)).statusCode, 400, `${source} -> ${target}`);
    }
    assert.equal((await app.service.inject({ method: 'GET', url: '/webmention/unknown' })).statusCode, 404);
  });

  it('answers 400 once the thread is closed by close_after_days', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ moderation: 'none', close_after_days: 60, webmention_private_sources: true });
    pages.set('/reply', { status: 200, html: reply(TARGET) });
    assert.equal((await received(`${origin}/reply`)).status, 'accepted');
    app.clock.advance(60 * 24 * HOUR_MS);
    assert.equal((await send(`${origin}/reply`)).statusCode, 400);
  });

  it('takes at most 60 webmentions an hour from one source host, under a burst', async () => {
    const origin = await startSite();
    app = await startCommentsApp({ moderation: 'none', webmention_private_sources: true });
    const answers = await Promise.all(Array.from({ length: 65 }, (_, index) => send(`${origin}/burst/${index}`)));
    const codes = answers.map((answer) => answer.statusCode);
    assert.equal(codes.filter((code) => code === 202).length, 60);
    assert.equal(codes.filter((code) => code === 429).length, 5);
    assert.ok(answers.find((answer) => answer.statusCode === 429)!.headers['retry-after']);
  });

  it('names the endpoint in a Link header of every post detail answer', async () => {
    app = await startCommentsApp();
    const detail = await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello' });
    assert.equal(detail.statusCode, 200);
    assert.equal(detail.headers.link, '<https://blog.example.com/webmention>; rel="webmention"');
  });
});
