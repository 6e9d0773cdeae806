// A long thread answered compressed (docs/comments.md "Reading the comments"), as the blog's cached answers are: the
// coding Accept-Encoding prefers, the same JSON once decompressed, its own ETag and 304, Vary: Accept-Encoding; and
// plain to a client that takes no coding; and made once per version of the thread, then only looked up.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, it } from 'node:test';
import type { StoredComment } from '../../src/comments/comment-store.js';
import { createCommentRoutes, THREAD_LEVELS, type CommentRoutesDeps } from '../../src/comments/http/comment-routes.js';
import { createCompress } from '../../src/http/compression.js';
import type { ContentCoding } from '../../src/http/content-negotiation.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

let app: CommentsApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const read = (headers: Record<string, string> = {}) => app!.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments', headers });

describe('a long thread', () => {
  it('is answered compressed as Accept-Encoding asks, and plain otherwise', async () => {
    app = await startCommentsApp({ moderation: 'none', rate_limit_per_hour: 0 });
    for (let index = 0; index < 20; index += 1) assert.equal((await app.post('hello', { name: `Reader ${index}`, text: `Comment ${index}, a few words long.` })).statusCode, 202);
    const plain = await read();
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.vary), /accept-encoding/i);
    assert.equal((plain.json() as { total: number }).total, 20);

    const gzip = await read({ 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gzip.rawPayload.length < plain.rawPayload.length / 2);
    assert.deepEqual(gunzipSync(gzip.rawPayload), plain.rawPayload);
    assert.notEqual(gzip.headers.etag, plain.headers.etag);
    assert.equal((await read({ 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) })).statusCode, 304);
    assert.equal((await read({ 'if-none-match': String(plain.headers.etag) })).statusCode, 304);

    const brotli = await read({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(brotli.rawPayload), plain.rawPayload);

    // A new comment is a new version: a new answer, compressed again.
    await app.post('hello', { name: 'Late', text: 'One more.' });
    const after = await read({ 'accept-encoding': 'gzip' });
    assert.equal((JSON.parse(gunzipSync(after.rawPayload).toString('utf8')) as { total: number }).total, 21);
  });
});

describe('a thread read again', () => {
  const post = { slug: 'hello', lang: 'en', dateMs: 0, author: null };
  const stored = (id: string): StoredComment => ({
    ...post, id, parent: null, author: { name: `Reader ${id}`, url: null }, email: null, text: id, html: `<p>Comment ${id}, a few words long.</p>`,
    createdAt: `2026-01-01T00:00:${id.padStart(2, '0')}.000Z`, status: 'published', kind: 'comment',
  });
  const thread = (count: number) => Object.freeze(Array.from({ length: count }, (_, index) => stored(String(index))));

  /** The GET handler over a store that hands out `held.comments`, and the compressions it asked for. */
  const routesOver = (held: { comments: readonly StoredComment[] }) => {
    const compressed: string[] = [];
    const compress = createCompress(THREAD_LEVELS);
    // Reading a thread uses the post finder and the store's listVersion only.
    const deps = {
      store: { listVersion: async () => held.comments },
      findPost: () => post,
      compress: (body: Buffer, coding: ContentCoding) => (compressed.push(coding), compress(body, coding)),
    } as unknown as CommentRoutesDeps;
    const routes = createCommentRoutes({ moderation: 'none', closeAfterDays: undefined, spamAction: 'quarantine', allowedOrigins: [] }, deps);
    const get = routes[0]!.methods.GET!;
    const request = (headers: Record<string, string>) =>
      get({ method: 'GET', path: '/api/blog/posts/hello/comments', url: '/api/blog/posts/hello/comments', query: '', clientAddress: '127.0.0.1', raw: { headers } as IncomingMessage });
    return { request, compressed };
  };

  it('is the same answer, compressed once, until the thread changes', async () => {
    const held = { comments: thread(40) };
    const { request, compressed } = routesOver(held);
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const first = await request(browser);
    assert.equal(first.status, 200);
    for (let index = 0; index < 20; index += 1) assert.equal(await request(browser), first, 'the answer made for the first request');
    const etag = (first.headers as string[])[(first.headers as string[]).indexOf('etag') + 1]!;
    const notModified = await request({ ...browser, 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(await request({ ...browser, 'if-none-match': etag }), notModified);
    // A store that reads the thread afresh (PostgreSQL) hands out a new array of the same comments: the same answer.
    held.comments = Object.freeze([...held.comments]);
    assert.equal(await request(browser), first);
    assert.deepEqual(compressed, ['br']);

    held.comments = thread(41);
    const changed = await request(browser);
    assert.notEqual(changed, first);
    assert.equal(await request(browser), changed);
    assert.deepEqual(compressed, ['br', 'br']);
  });
});
