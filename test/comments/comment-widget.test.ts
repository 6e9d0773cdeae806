// The comment widget (docs/comments.md "The widget"): its SHA-256 against Node's, its proof of work against the
// server's check, its size, and how /comments.js and /comments.<hash>.js are served on the blog listener.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { commentWidget } from '../../src/comments/comment-widget.js';
import { solve, type Challenge } from '../../src/comments/browser/proof-of-work.js';
import { sha256 } from '../../src/comments/browser/sha256.js';
import { createProofOfWork } from '../../src/forms/spam/proof-of-work.js';
import { contentHash } from '../../src/http/fixed-file.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

/** "10 kB gzip": 10,240 bytes at gzip level 9 (docs/comments.md "The widget"). */
const GZIP_BUDGET = 10_240;

describe('the widget\'s SHA-256', () => {
  it('gives Node\'s digest for every length across the block boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      assert.equal(Buffer.from(sha256(message)).toString('hex'), createHash('sha256').update(message).digest('hex'), `length ${length}`);
    }
  });
});

describe('the widget\'s proof of work', () => {
  it('solves a challenge as the server issues it, and the server takes the solution', async () => {
    const used = new Set<string>();
    const proofOfWork = createProofOfWork(
      { form: '/api/blog/comments/challenge', minSeconds: 0, expiresSeconds: 600, secrets: async () => ({ secret: 'one secret', keySecret: 'another secret' }) },
      { useOnce: async (id) => !used.has(id) && Boolean(used.add(id)) },
    );
    const challenge = await proofOfWork.issue(1000);
    const altcha = await solve(challenge as unknown as Challenge);
    assert.equal(await proofOfWork.check(altcha, 2000), undefined);
    assert.equal(await proofOfWork.check(altcha, 2000), 'replayed', 'a solution is good once');
  });
});

describe('GET /comments.js', () => {
  let app: CommentsApp | undefined;
  after(() => app?.close());

  it('is at most 10,240 bytes at gzip level 9', () => {
    const size = gzipSync(commentWidget(), { level: 9 }).length;
    assert.ok(size <= GZIP_BUDGET, `${size} bytes`);
  });

  it('serves the widget an hour with an ETag, compressed as asked, and at its versioned address a year', async () => {
    app = await startCommentsApp();
    const widget = commentWidget();
    const plain = await app.service.inject({ method: 'GET', url: '/comments.js' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=3600');
    assert.equal(plain.headers['access-control-allow-origin'], '*');
    assert.equal(plain.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(plain.body, widget.toString('utf8'));
    assert.match(plain.body, /customElements\.define\("postbox-comments"/);

    const gzipped = await app.service.inject({ method: 'GET', url: '/comments.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.equal(gzipped.headers.vary, 'Accept-Encoding');
    assert.deepEqual(gunzipSync(gzipped.rawPayload), widget);
    const again = await app.service.inject({ method: 'GET', url: '/comments.js', headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gzipped.headers.etag) } });
    assert.equal(again.statusCode, 304);

    const versioned = await app.service.inject({ method: 'GET', url: `/comments.${contentHash(widget)}.js` });
    assert.equal(versioned.statusCode, 200);
    assert.equal(versioned.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(versioned.body, plain.body);
    assert.equal((await app.service.inject({ method: 'GET', url: '/comments.AAAAAAAAAAAAAAAA.js' })).statusCode, 404);
  });
});
