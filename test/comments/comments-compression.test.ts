// A long thread answered compressed (docs/comments.md "Reading the comments"), as the blog's cached answers are: the
// coding Accept-Encoding prefers, the same JSON once decompressed, its own ETag and 304, Vary: Accept-Encoding; and
// plain to a client that takes no coding.
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, it } from 'node:test';
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
