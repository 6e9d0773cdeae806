// GET and POST /api/blog/posts/<slug>/comments (docs/comments.md "The API") through the composed blog service:
// what is shown and what never is, the answers of the error catalogue, CORS, the form without script, moderation,
// and the per-address limit under a burst.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { HOUR_MS } from '../support/clock.js';
import { SITE_ORIGIN, startCommentsApp, type CommentsApp } from './comments-app.js';

let app: CommentsApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const start = async (comments: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => (app = await startCommentsApp(comments, extra));
const thread = async (slug = 'hello', headers: Record<string, string> = {}) => app!.service.inject({ method: 'GET', url: `/api/blog/posts/${slug}/comments`, headers });

describe('comments API', () => {
  it('publishes at once with moderation "none", oldest first, threaded by parent, and never shows the address', async () => {
    await start({ moderation: 'none' });
    // Sent a quarter of a second past a full second: the thread shows the second.
    app!.clock.advance(250);
    const first = await app!.post('hello', { name: 'Ada', email: 'ada@example.org', url: 'https://ada.example', text: 'Nice *post*, see https://x.example\n\n<script>alert(1)</script>' });
    assert.equal(first.statusCode, 202);
    const { status, id } = first.json() as { status: string; id: string };
    assert.equal(status, 'published');
    // The second it was sent, then four random digits, in base 36.
    assert.match(id, /^[0-9a-z]{10}$/);
    assert.equal(id.slice(0, 6), Math.floor(app!.clock() / 1000).toString(36));
    app!.clock.advance(1000);
    const reply = await app!.post('hello', { name: 'Bob', text: 'Agreed.', parent: id });
    assert.equal(reply.statusCode, 202);

    const answer = await thread();
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.doesNotMatch(answer.body, /ada@example\.org/);
    const body = answer.json() as { comments: Array<Record<string, unknown>>; total: number };
    assert.equal(body.total, 2);
    assert.deepEqual(Object.keys(body.comments[0]!).sort(), ['author', 'created_at', 'html', 'id', 'kind', 'parent']);
    assert.deepEqual(body.comments[0]!.author, { name: 'Ada', url: 'https://ada.example' });
    assert.equal(body.comments[0]!.parent, null);
    assert.equal(body.comments[0]!.kind, 'comment');
    assert.equal(body.comments[0]!.created_at, new Date(Math.floor((app!.clock() - 1000) / 1000) * 1000).toISOString());
    assert.equal(body.comments[1]!.parent, id);
    const html = body.comments[0]!.html as string;
    assert.match(html, /<em>post<\/em>/);
    assert.match(html, /<a href="https:\/\/x\.example" rel="nofollow ugc">/);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /&lt;script&gt;/);
  });

  it('answers 304 to a matching ETag, and a new ETag once the thread changes', async () => {
    await start({ moderation: 'none' });
    const before = await thread();
    const etag = before.headers.etag as string;
    assert.ok(etag);
    assert.equal((await thread('hello', { 'if-none-match': etag })).statusCode, 304);
    await app!.post('hello', { name: 'Ada', text: 'Hello' });
    const after = await thread('hello', { 'if-none-match': etag });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, etag);
  });

  it('is 404 for an unknown post, a draft, and a post with comments = false', async () => {
    await start();
    for (const slug of ['nope', 'draft', 'quiet']) {
      assert.equal((await thread(slug)).statusCode, 404, slug);
      assert.equal((await app!.post(slug, { name: 'Ada', text: 'Hi' })).statusCode, 404, slug);
    }
  });

  it('answers 400 validation per field, and a parent that is not a published comment of the post', async () => {
    await start({ moderation: 'all' });
    const invalid = await app!.post('hello', { name: '', email: 'not-an-address', url: 'javascript:alert(1)', text: 'x'.repeat(10_001) });
    assert.equal(invalid.statusCode, 400);
    const body = invalid.json() as { error: string; details: Array<{ field: string }> };
    assert.equal(body.error, 'validation');
    assert.deepEqual(body.details.map((detail) => detail.field), ['name', 'email', 'url', 'text']);
    const waiting = (await app!.post('hello', { name: 'Ada', text: 'first' })).json() as { id: string };
    const reply = await app!.post('hello', { name: 'Bob', text: 'reply', parent: waiting.id });
    assert.equal(reply.statusCode, 400, 'a waiting comment cannot be answered');
    assert.deepEqual((reply.json() as { details: Array<{ field: string }> }).details.map((detail) => detail.field), ['parent']);
  });

  it('refuses an origin not allowed (403), answers the preflight of an allowed one, 413 for a large body and 405 with its methods', async () => {
    await start();
    const refused = await app!.post('hello', { name: 'Ada', text: 'Hi' }, { origin: 'https://evil.example' });
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as { error: string }).error, 'origin_not_allowed');
    const preflight = await app!.service.inject({ method: 'OPTIONS', url: '/api/blog/posts/hello/comments', headers: { origin: SITE_ORIGIN, 'access-control-request-method': 'POST' } });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], SITE_ORIGIN);
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
    const accepted = await app!.post('hello', { name: 'Ada', text: 'Hi' });
    assert.equal(accepted.headers['access-control-allow-origin'], SITE_ORIGIN);
    const large = await app!.post('hello', { name: 'Ada', text: 'x'.repeat(70_000) });
    assert.equal(large.statusCode, 413);
    const deleted = await app!.service.inject({ method: 'DELETE', url: '/api/blog/posts/hello/comments' });
    assert.equal(deleted.statusCode, 405);
    assert.equal(deleted.headers.allow, 'GET, HEAD, POST, OPTIONS');
  });

  it('answers a form sent without script with 303 back to the page', async () => {
    await start({ moderation: 'first' });
    const form = (fields: Record<string, string>) =>
      app!.service.inject({
        method: 'POST',
        url: '/api/blog/posts/hello/comments',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE_ORIGIN, referer: `${SITE_ORIGIN}/blog/hello#top`, accept: 'text/html' },
        payload: new URLSearchParams(fields).toString(),
      });
    const pending = await form({ name: 'Ada', email: 'ada@example.org', text: 'From a plain form' });
    assert.equal(pending.statusCode, 303);
    assert.equal(pending.headers.location, `${SITE_ORIGIN}/blog/hello#comment-pending`);
  });

  it('limits comments per address per hour, also under a burst of concurrent POSTs', async () => {
    await start({ moderation: 'none', rate_limit_per_hour: 3 });
    const burst = await Promise.all(Array.from({ length: 10 }, (_, index) => app!.post('hello', { name: 'Ada', text: `burst ${index}` })));
    const statuses = burst.map((answer) => answer.statusCode).sort();
    assert.deepEqual(statuses, [202, 202, 202, 429, 429, 429, 429, 429, 429, 429]);
    const limited = burst.find((answer) => answer.statusCode === 429)!;
    assert.equal((limited.json() as { error: string }).error, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(((await thread()).json() as { total: number }).total, 3);
    app!.clock.advance(HOUR_MS);
    assert.equal((await app!.post('hello', { name: 'Ada', text: 'an hour later' })).statusCode, 202);
  });

  it('keeps a comment that fills the honeypot or breaks a content rule as spam, answered as pending and never shown', async () => {
    await start({ moderation: 'none', spam: { max_links: 0 } });
    const honeypot = await app!.post('hello', { name: 'Bot', text: 'Buy now', website: 'https://spam.example' });
    assert.deepEqual(honeypot.statusCode, 202);
    assert.equal((honeypot.json() as { status: string }).status, 'pending');
    const links = await app!.post('hello', { name: 'Bot', text: 'Visit https://spam.example' });
    assert.equal((links.json() as { status: string }).status, 'pending');
    assert.equal(((await thread()).json() as { total: number }).total, 0);
  });

  it('asks for proof of work by default and serves its challenge', async () => {
    app = await startCommentsApp({ moderation: 'none', spam: { proof_of_work: true } });
    const challenge = await app.service.inject({ method: 'GET', url: '/api/blog/comments/challenge', headers: { origin: SITE_ORIGIN } });
    assert.equal(challenge.statusCode, 200);
    assert.equal(challenge.headers['cache-control'], 'no-store');
    assert.equal(challenge.headers['access-control-allow-origin'], SITE_ORIGIN);
    assert.ok((challenge.json() as { parameters?: unknown }).parameters);
    const unsolved = await app.post('hello', { name: 'Ada', text: 'No work done' });
    assert.equal((unsolved.json() as { status: string }).status, 'pending', 'taken for spam without a solution');
    assert.equal(((await thread()).json() as { total: number }).total, 0);
  });

  it('closes a thread close_after_days after the post date', async () => {
    await start({ moderation: 'none', close_after_days: 60 });
    assert.equal((await app!.post('hello', { name: 'Ada', text: 'in time' })).statusCode, 202);
    app!.clock.advance(60 * 24 * HOUR_MS);
    const closed = await app!.post('hello', { name: 'Ada', text: 'too late' });
    assert.equal(closed.statusCode, 404);
    assert.equal(((await thread()).json() as { total: number }).total, 1, 'the thread is still shown');
  });
});

describe('comments behind a proxy', () => {
  it('counts each client of [server] trust_proxy_headers in its own bucket, not the proxy\'s', async () => {
    await start({ moderation: 'none', rate_limit_per_hour: 1 }, { server: { trust_proxy_headers: true }, admin: null });
    const from = (address: string, text: string) => app!.post('hello', { name: 'Ada', text }, { 'x-forwarded-for': address });
    assert.equal((await from('203.0.113.1', 'one')).statusCode, 202);
    assert.equal((await from('203.0.113.2', 'two')).statusCode, 202, 'another client behind the same proxy');
    assert.equal((await from('203.0.113.1', 'three')).statusCode, 429);
  });
});
