// Compressed blog answers (docs/blog.md "HTTP details"): every kind of cached answer in br and gzip decompresses to
// the plain bytes, Vary on each form, an entity tag per coding with 304s on either form, q-values honoured, HEAD and
// Content-Length right on a real socket, small answers and images plain, and each answer compressed once.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createBlogContent, type BlogContent } from '../../src/blog/blog-content.js';
import { createBlogService } from '../../src/blog/blog-service.js';
import { createAnswerPicker } from '../../src/blog/http/encoded-answers.js';
import { createResponseFactory } from '../../src/blog/http/prepared-response.js';
import { parsePostsQuery } from '../../src/blog/catalog/query.js';
import { createClientAddressResolver } from '../../src/http/client-ip.js';
import { CACHED_LEVELS, createCompress, type Compress } from '../../src/http/compression.js';
import type { ContentCoding } from '../../src/http/content-negotiation.js';
import { driveService, type InjectedResponse, type ServiceDriver } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { blogConfig } from './fixture.js';

const POSTS = 20;
/** A PNG's signature and header, padded to 4 KiB of zeros: as compressible as bytes get, and still an image. */
const LARGE_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1'),
  Buffer.alloc(4096),
]);

/** Every kind of cached answer, each at least 1 KiB with these posts. */
const KINDS = [
  '/api/blog/posts',
  '/api/blog/posts?tag=common-topic',
  '/api/blog/posts/post-7',
  '/api/blog/tags',
  '/api/blog/feed.xml',
  '/api/blog/feed.json',
  '/api/blog/sitemap.xml',
];

function post(index: number): string {
  const tags = ['"common-topic"', ...[0, 1, 2].map((offset) => `"topic-${(index * 3 + offset) % 40}-of-the-compression-fixture"`)].join(', ');
  const paragraphs = Array.from({ length: 12 }, (_, line) => `Paragraph ${line} of post ${index}: the *quick* brown fox number ${index * line} jumps over the lazy dog, and [a link](https://example.org/${index}/${line}).`);
  return `+++\ntitle = "Post number ${index}"\ndate = 2024-01-${String(index + 1).padStart(2, '0')}\ntags = [${tags}]\n+++\n\n${paragraphs.join('\n\n')}\n`;
}

const calls: Array<{ coding: ContentCoding; bytes: number }> = [];
let failNext = 0;
/** The blog's own compression, counted, and failing when a test asks it to. */
const countingCompress: Compress = (body, coding) => {
  calls.push({ coding, bytes: body.length });
  if (failNext > 0) {
    failNext -= 1;
    return Promise.reject(new Error('compression failed'));
  }
  return createCompress(CACHED_LEVELS)(body, coding);
};

let content: BlogContent;
let app: ServiceDriver;
let remove: () => Promise<void>;

before(async () => {
  const temp = await createTempDir('blog-compression');
  remove = temp.remove;
  for (let index = 0; index < POSTS; index += 1) await writeFile(path.join(temp.dir, `post-${index}.md`), post(index));
  await mkdir(path.join(temp.dir, 'pictures'));
  await writeFile(path.join(temp.dir, 'pictures', 'index.md'), `+++\ntitle = "Pictures"\ndate = 2023-06-01\n+++\n\n![A photo](photo.png)\n`);
  await writeFile(path.join(temp.dir, 'pictures', 'photo.png'), LARGE_PNG);
  const config = blogConfig(temp.dir);
  const logs = captureLogs();
  const settings = { site: config.site!, blog: config.blog! };
  content = await createBlogContent(settings, { logger: logs.logger, rescanIntervalMs: 0 });
  const service = createBlogService(settings, content, { logger: logs.logger, requestLog: logs.requestLog, clientAddressOf: createClientAddressResolver(0), compress: countingCompress });
  app = driveService(service);
});

after(async () => {
  await content.close();
  await remove();
});

function get(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET'): Promise<InjectedResponse> {
  return app.inject({ method, url, headers });
}

function decode(response: InjectedResponse): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.rawPayload);
  if (coding === 'gzip') return gunzipSync(response.rawPayload);
  assert.equal(coding, undefined);
  return response.rawPayload;
}

/** `"abc"` as `"abc-br"`. */
const tagged = (etag: unknown, coding: ContentCoding) => `${String(etag).slice(0, -1)}-${coding}"`;

describe('compressed blog answers', () => {
  it('every kind of cached answer decompresses, in br and in gzip, to the very bytes of the plain answer, each form with Vary', async () => {
    for (const url of KINDS) {
      const plain = await get(url);
      assert.equal(plain.statusCode, 200, url);
      assert.ok(plain.rawPayload.length >= 1024, `${url} is ${plain.rawPayload.length} bytes, too small to be compressed`);
      assert.equal(plain.headers['content-encoding'], undefined, url);
      assert.equal(plain.headers.vary, 'Accept-Encoding', url);
      for (const coding of ['br', 'gzip'] as const) {
        const encoded = await get(url, { 'accept-encoding': coding });
        assert.equal(encoded.statusCode, 200, `${url} ${coding}`);
        assert.equal(encoded.headers['content-encoding'], coding, url);
        assert.equal(encoded.headers.vary, 'Accept-Encoding', url);
        assert.ok(encoded.rawPayload.length < plain.rawPayload.length, `${url} ${coding} is smaller`);
        assert.equal(encoded.headers['content-length'], String(encoded.rawPayload.length), `${url} ${coding}`);
        assert.deepEqual(decode(encoded), plain.rawPayload, `${url} ${coding}`);
        assert.equal(encoded.headers.etag, tagged(plain.headers.etag, coding), `${url} ${coding}`);
        for (const name of ['content-type', 'cache-control', 'access-control-allow-origin']) assert.equal(encoded.headers[name], plain.headers[name], `${url} ${name}`);
      }
    }
  });

  it('prefers br, honours q-values, identity and *', async () => {
    const url = '/api/blog/feed.json';
    const cases: Array<[string, ContentCoding | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['*;q=0', undefined],
      ['identity', undefined],
      ['identity;q=1, br;q=0.2', undefined],
      ['deflate', undefined],
    ];
    const plain = await get(url);
    for (const [header, coding] of cases) {
      const response = await get(url, { 'accept-encoding': header });
      assert.equal(response.statusCode, 200, header);
      assert.equal(response.headers['content-encoding'], coding, header);
      assert.equal(response.headers.vary, 'Accept-Encoding', header);
      assert.deepEqual(decode(response), plain.rawPayload, header);
    }
  });

  it('304 on If-None-Match with either form of the tag, carrying the entity tag of the form asked for', async () => {
    const url = '/api/blog/feed.xml';
    const plain = await get(url);
    const etag = String(plain.headers.etag);
    const cases: Array<[string | undefined, string, string]> = [
      ['br', tagged(etag, 'br'), tagged(etag, 'br')],
      ['br', etag, tagged(etag, 'br')],
      ['br', `W/${tagged(etag, 'br')}`, tagged(etag, 'br')],
      ['br', `"other", ${tagged(etag, 'gzip')}`, tagged(etag, 'br')],
      ['gzip', tagged(etag, 'br'), tagged(etag, 'gzip')],
      [undefined, tagged(etag, 'br'), etag],
      [undefined, etag, etag],
      ['br', '*', tagged(etag, 'br')],
    ];
    for (const [coding, ifNoneMatch, expected] of cases) {
      const response = await get(url, { ...(coding ? { 'accept-encoding': coding } : {}), 'if-none-match': ifNoneMatch });
      assert.equal(response.statusCode, 304, `${coding} ${ifNoneMatch}`);
      assert.equal(response.headers.etag, expected, `${coding} ${ifNoneMatch}`);
      assert.equal(response.headers.vary, 'Accept-Encoding');
      assert.equal(response.headers['content-encoding'], undefined);
      assert.equal(response.rawPayload.length, 0);
    }
    for (const stale of ['"stale"', `"${etag.slice(1, -1)}-deflate"`, `"${etag.slice(1, -1)}x-br"`]) {
      const changed = await get(url, { 'accept-encoding': 'br', 'if-none-match': stale });
      assert.equal(changed.statusCode, 200, stale);
      assert.equal(changed.headers['content-encoding'], 'br');
    }
  });

  it('small answers, errors and images stay plain, without Vary, whatever the client takes', async () => {
    for (const url of ['/api/blog/site', '/health', '/api/blog/posts/nope', '/api/blog/nothing-here', '/api/blog/media/pictures/photo.png']) {
      const plain = await get(url);
      const asked = await get(url, { 'accept-encoding': 'br, gzip' });
      assert.equal(asked.statusCode, plain.statusCode, url);
      assert.equal(asked.headers['content-encoding'], undefined, url);
      assert.equal(asked.headers.vary, undefined, url);
      assert.deepEqual(asked.rawPayload, plain.rawPayload, url);
      assert.equal(asked.headers.etag, plain.headers.etag, url);
    }
    const image = await get('/api/blog/media/pictures/photo.png', { 'accept-encoding': 'br' });
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.rawPayload, LARGE_PNG);
  });

  it('a cached answer is compressed once per coding, however many requests ask for it, a concurrent burst included', async () => {
    const url = '/api/blog/posts?tag=common-topic&limit=5';
    const before = calls.length;
    // 304s and HEADs before the first compressed GET need no compressed body.
    const etag = String((await get(url)).headers.etag);
    assert.equal((await get(url, { 'accept-encoding': 'br', 'if-none-match': etag })).statusCode, 304);
    assert.equal(calls.length, before, 'a 304 compresses nothing');
    const burst = await Promise.all(Array.from({ length: 40 }, () => get(url, { 'accept-encoding': 'br' })));
    assert.equal(calls.length, before + 1, 'one compression for the burst');
    for (const response of burst) assert.deepEqual(response.rawPayload, burst[0]!.rawPayload);
    for (let index = 0; index < 40; index += 1) await get(url, { 'accept-encoding': index % 2 === 0 ? 'br' : 'gzip, br' });
    const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.headers['content-length'], String(burst[0]!.rawPayload.length));
    assert.equal(calls.length, before + 1, 'none for later requests, HEAD included');
    await Promise.all(Array.from({ length: 20 }, () => get(url, { 'accept-encoding': 'gzip' })));
    assert.equal(calls.length, before + 2, 'one more for gzip');
    assert.deepEqual(
      calls.slice(before).map((call) => call.coding),
      ['br', 'gzip'],
    );
    // The form is kept with the prepared answer of this content version.
    const query = parsePostsQuery({ tag: 'common-topic', limit: '5' });
    assert.ok(query.ok);
    const prepared = content.current().posts(query.query);
    assert.ok(!(prepared instanceof Promise));
    assert.deepEqual(prepared.encodings?.br?.answer?.body, burst[0]!.rawPayload);
  });

  it('a failed compression answers plain (with Vary) and a later request compresses', async () => {
    const url = '/api/blog/posts?tag=common-topic&limit=6';
    const plain = await get(url);
    failNext = 1;
    const failed = await get(url, { 'accept-encoding': 'br' });
    assert.equal(failNext, 0, 'the compression was tried');
    assert.equal(failed.statusCode, 200);
    assert.equal(failed.headers['content-encoding'], undefined);
    assert.equal(failed.headers.vary, 'Accept-Encoding');
    assert.deepEqual(failed.rawPayload, plain.rawPayload);
    const retried = await get(url, { 'accept-encoding': 'br' });
    assert.equal(retried.headers['content-encoding'], 'br');
    assert.deepEqual(decode(retried), plain.rawPayload);
  });

  it('on a real socket, GET and HEAD carry the Content-Length of the compressed body, and the body matches it', async () => {
    const running = await app.listen();
    try {
      for (const url of ['/api/blog/posts', '/api/blog/sitemap.xml']) {
        const plain = await get(url);
        for (const coding of ['br', 'gzip'] as const) {
          const got = await fetchRaw(`${running.address}${url}`, 'GET', coding);
          const head = await fetchRaw(`${running.address}${url}`, 'HEAD', coding);
          assert.equal(got.headers['content-encoding'], coding);
          assert.equal(got.headers['content-length'], String(got.body.length), `${url} ${coding}`);
          assert.equal(head.headers['content-length'], got.headers['content-length'], `${url} ${coding} HEAD`);
          assert.equal(head.headers['content-encoding'], coding);
          assert.equal(head.body.length, 0);
          assert.deepEqual(coding === 'br' ? brotliDecompressSync(got.body) : gunzipSync(got.body), plain.rawPayload);
        }
      }
    } finally {
      await running.close(1000);
    }
  });
});

describe('prepared answers and their compressed forms', () => {
  it('each new answer (a new content version) is compressed again; an answer kept is not', async () => {
    const respond = createResponseFactory(60);
    let count = 0;
    const pick = createAnswerPicker(async (body, coding) => {
      count += 1;
      return createCompress(CACHED_LEVELS)(body, coding);
    });
    const headers = { 'accept-encoding': 'br' };
    const first = respond.content(JSON.stringify({ posts: Array.from({ length: 100 }, (_, index) => ({ slug: `first-version-${index}` })) }), 'application/json; charset=utf-8');
    const second = respond.content(JSON.stringify({ posts: Array.from({ length: 100 }, (_, index) => ({ slug: `second-version-${index}` })) }), 'application/json; charset=utf-8');
    await pick(first, headers);
    await pick(first, headers);
    assert.equal(count, 1);
    await pick(second, headers);
    assert.equal(count, 2);
    await pick(first, headers);
    assert.equal(count, 2);
  });

  it('an answer that compression would not shrink is sent plain, and not compressed again', async () => {
    const respond = createResponseFactory(60);
    let count = 0;
    const pick = createAnswerPicker(async (body) => {
      count += 1;
      return Buffer.alloc(body.length + 10);
    });
    const prepared = respond.content('x'.repeat(2000), 'text/plain; charset=utf-8');
    const answer = await pick(prepared, { 'accept-encoding': 'gzip' });
    assert.equal(answer, prepared.answer);
    assert.equal(await pick(prepared, { 'accept-encoding': 'gzip' }), prepared.answer);
    assert.equal(count, 1);
    // Its 304 carries the plain tag the client was given.
    assert.equal(await pick(prepared, { 'accept-encoding': 'gzip', 'if-none-match': prepared.etag! }), prepared.notModified);
  });
});

/** A raw GET or HEAD over a socket, the body as sent (not decompressed). */
function fetchRaw(url: string, method: 'GET' | 'HEAD', coding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { 'accept-encoding': coding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}
