// /admin answers compressed for the clients that take them (docs/forms-api.md "Compression"): pages, the admin's own
// files and JSON in br or gzip decompress to the plain bytes, Vary on each form, q-values honoured, HEAD with the
// compressed length; small bodies, streams, images and redirects as they were.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { h } from 'preact';
import type { Response } from 'light-my-request';
import type { AdminRoute } from '../../src/admin/admin-pages.js';
import { adminAssetPath } from '../../src/admin/admin-assets.js';
import { htmlAnswer, redirectAnswer } from '../../src/admin/render.js';
import { Layout } from '../../src/admin/views/layout.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const IMAGE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(8192)]);
const ROWS = Array.from({ length: 200 }, (_, index) => `Message ${index} from someone at example.org about the weather`);

const pages: AdminRoute[] = [
  {
    path: '/admin/long',
    methods: { GET: (_request, session) => htmlAnswer(200, Layout({ title: 'Long', session, children: h('ul', null, ROWS.map((row) => h('li', null, row))) })) },
  },
  { path: '/admin/tiny', methods: { GET: () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<p>Small.</p>' }) } },
  { path: '/admin/rows.json', methods: { GET: () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(ROWS) }) } },
  { path: '/admin/rows.csv', methods: { GET: () => ({ status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, body: Readable.from([ROWS.join('\n')]) }) } },
  { path: '/admin/picture', methods: { GET: () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: IMAGE }) } },
  { path: '/admin/elsewhere', methods: { GET: () => redirectAnswer('/admin/long') } },
];

let app: TestAdmin;
let cookie: string;
let remove: () => Promise<void>;

before(async () => {
  const temp = await createTempDir('admin-compression');
  remove = temp.remove;
  app = await startTestAdmin({ dataDir: temp.dir, pages });
  ({ cookie } = await signIn(app));
});

after(async () => {
  await app.close();
  await remove();
});

/** The sign-in page is read without a session (with one it redirects). */
const ANONYMOUS = new Set(['/admin/login']);

function get(url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
  const session = ANONYMOUS.has(url) ? {} : { cookie };
  return app.inject({ method, url, headers: { ...session, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) } });
}

function decode(response: Response): Buffer {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.rawPayload);
  if (coding === 'gzip') return gunzipSync(response.rawPayload);
  assert.equal(coding, undefined);
  return response.rawPayload;
}

describe('compressed /admin answers', () => {
  it('a page, JSON, the sign-in page and the admin\'s stylesheet decompress to the plain bytes, with Vary and the admin\'s headers on each form', async () => {
    for (const url of ['/admin/long', '/admin/rows.json', '/admin/login', adminAssetPath('admin.css')]) {
      const plain = await get(url);
      assert.equal(plain.statusCode, 200, url);
      assert.ok(plain.rawPayload.length >= 1024, `${url}: ${plain.rawPayload.length} bytes`);
      assert.equal(plain.headers.vary, 'Accept-Encoding', url);
      assert.equal(plain.headers['content-encoding'], undefined, url);
      for (const coding of ['br', 'gzip'] as const) {
        const encoded = await get(url, coding);
        assert.equal(encoded.headers['content-encoding'], coding, `${url} ${coding}`);
        assert.equal(encoded.headers.vary, 'Accept-Encoding', `${url} ${coding}`);
        assert.equal(encoded.headers['content-length'], String(encoded.rawPayload.length), `${url} ${coding}`);
        assert.ok(encoded.rawPayload.length < plain.rawPayload.length / 2, `${url} ${coding} shrinks`);
        assert.deepEqual(decode(encoded), plain.rawPayload, `${url} ${coding}`);
        for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-frame-options']) assert.equal(encoded.headers[name], plain.headers[name], `${url} ${name}`);
      }
    }
  });

  it('honours q-values: a refused coding is never used, and identity is answered plain', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.1, gzip;q=0.9', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['*;q=0', undefined],
      ['identity', undefined],
      ['gzip;q=0, *', 'br'],
    ];
    const plain = await get('/admin/long');
    for (const [header, coding] of cases) {
      const response = await get('/admin/long', header);
      assert.equal(response.headers['content-encoding'], coding, header);
      assert.equal(response.headers.vary, 'Accept-Encoding', header);
      assert.deepEqual(decode(response), plain.rawPayload, header);
    }
  });

  it('HEAD gives the Content-Length of the compressed GET, without a body', async () => {
    for (const coding of ['br', 'gzip']) {
      const got = await get('/admin/rows.json', coding);
      const head = await get('/admin/rows.json', coding, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-encoding'], coding);
      assert.equal(head.headers['content-length'], got.headers['content-length']);
      assert.equal(head.rawPayload.length, 0);
    }
  });

  it('small bodies, streams, images and redirects are left as they are, without Vary', async () => {
    for (const url of ['/admin/tiny', '/admin/rows.csv', '/admin/picture', '/admin/elsewhere']) {
      const plain = await get(url);
      const asked = await get(url, 'br, gzip');
      assert.equal(asked.statusCode, plain.statusCode, url);
      assert.equal(asked.headers['content-encoding'], undefined, url);
      assert.equal(asked.headers.vary, undefined, url);
      assert.deepEqual(asked.rawPayload, plain.rawPayload, url);
    }
    assert.deepEqual((await get('/admin/picture', 'br')).rawPayload, IMAGE);
    assert.equal((await get('/admin/rows.csv', 'br')).body, ROWS.join('\n'));
  });
});
