// Over a real socket the blog's front door answers byte for byte what `inject` gets from it, and writes the
// same request line.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../src/http/http-server.js';
import { waitFor } from '../support/wait.js';
import { startBlog, type RunningBlog } from './fixture.js';

let blog: RunningBlog;
let server: RunningServer;
let address: string;
before(async () => {
  blog = await startBlog();
  server = await blog.app.listen();
  address = server.address;
});
after(async () => {
  await server.close(0);
  await blog.close();
});

const URLS = [
  '/health',
  '/api/blog/site',
  '/api/blog/tags',
  '/api/blog/feed.xml',
  '/api/blog/feed.json',
  '/api/blog/sitemap.xml',
  '/api/blog/posts',
  '/api/blog/posts?page=2&limit=3',
  '/api/blog/posts?lang=fr&tag=rust',
  '/api/blog/posts?q=%C3%89T%C3%89',
  '/api/blog/posts?q=%C3%A9t%C3%A9+paris&page=1',
  '/api/blog/posts?page=0',
  '/api/blog/posts?limit=101',
  '/api/blog/posts?page=1&page=2',
  '/api/blog/posts/alpha',
  '/api/blog/posts/alpha?lang=fr',
  '/api/blog/posts/alpha?lang=de',
  '/api/blog/posts/alpha?lang=fr&lang=en',
  '/api/blog/posts/draft-only',
  '/api/blog/posts/node.js',
  '/api/blog/posts/..%2F..%2Fsite',
  '/api/blog/posts/%E0%A4%A',
  '/api/blog/posts/',
  '/api/blog/nothing',
  '/nothing',
];
const HEADERS = ['content-type', 'content-length', 'etag', 'cache-control', 'access-control-allow-origin', 'allow'];

describe('the blog over a real socket', () => {
  it('answers every URL as inject does: status, headers and bytes', async () => {
    for (const url of URLS) {
      // fetch asks for br and gzip unless told otherwise; inject asks for nothing, so both get the plain bytes.
      const viaSocket = await fetch(address + url, { headers: { 'accept-encoding': 'identity' } });
      const socketBody = Buffer.from(await viaSocket.arrayBuffer());
      const viaInject = await blog.app.inject({ url });
      assert.equal(viaSocket.status, viaInject.statusCode, url);
      assert.equal(viaSocket.headers.get('access-control-allow-origin'), '*', url);
      assert.deepEqual(socketBody, viaInject.rawPayload, url);
      for (const name of HEADERS) {
        const injected = viaInject.headers[name];
        assert.equal(viaSocket.headers.get(name), injected === undefined ? null : String(injected), `${url} ${name}`);
      }
    }
  });

  it('answers HEAD without a body and If-None-Match with 304', async () => {
    const get = await fetch(`${address}/api/blog/feed.xml`);
    await get.arrayBuffer();
    const head = await fetch(`${address}/api/blog/feed.xml`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const notModified = await fetch(`${address}/api/blog/feed.xml`, { headers: { 'if-none-match': String(get.headers.get('etag')) } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('etag'), get.headers.get('etag'));
    assert.equal(notModified.headers.get('access-control-allow-origin'), '*');
    assert.equal(notModified.headers.get('cache-control'), 'public, max-age=120');
  });

  it('reads If-None-Match in any case and over repeated header lines', async () => {
    const etag = String((await fetch(`${address}/api/blog/site`)).headers.get('etag'));
    const status = (headers: Record<string, string | string[]>) =>
      new Promise<number>((resolve, reject) => {
        http.get(`${address}/api/blog/site`, { headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        }).on('error', reject);
      });
    assert.equal(await status({ 'IF-NONE-MATCH': etag }), 304);
    assert.equal(await status({ 'if-none-match': ['"other"', etag] }), 304);
    assert.equal(await status({ 'if-none-match': ['"other"', '"another"'] }), 200);
  });

  it('answers OPTIONS with the preflight and other methods with 405', async () => {
    const options = await fetch(`${address}/api/blog/posts`, { method: 'OPTIONS' });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
    const post = await fetch(`${address}/api/blog/posts`, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(post.headers.get('access-control-allow-origin'), '*');
  });

  it('writes one request line per answer, without the query string', async () => {
    await (await fetch(`${address}/api/blog/posts/first-unique?lang=secret`)).arrayBuffer();
    await (await fetch(`${address}/api/blog/posts/second-unique`, { method: 'HEAD' })).arrayBuffer();
    const mine = () => blog.logs.lines().filter((line) => line.msg === 'request' && String(line.path).endsWith('-unique'));
    // Request lines are written in batches, at most FLUSH_DELAY_MS after the answer.
    const lines = await waitFor('two request lines', () => (mine().length >= 2 ? mine() : undefined), 5000);
    assert.deepEqual(
      lines.map(({ method, path, status, ip }) => ({ method, path, status, ip })),
      [
        { method: 'GET', path: '/api/blog/posts/first-unique', status: 404, ip: '127.0.0.1' },
        { method: 'HEAD', path: '/api/blog/posts/second-unique', status: 404, ip: '127.0.0.1' },
      ],
    );
    for (const line of lines) assert.equal(typeof line.duration_ms, 'number');
    assert.ok(!blog.logs.text().includes('secret'));
  });
});
