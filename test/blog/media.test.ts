// Images beside a post (docs/blog.md "Images beside a post"): content sniffing, the path rule, and GET /api/blog/media/<slug>/<file> through the service's front door.
import assert from 'node:assert/strict';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { detectImageType } from '../../src/kit/image-type.js';
import { parseMediaPath } from '../../src/blog/media/media-path.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { createFakeTime, type FakeTime } from './fake-time.js';
import { startBlog, type RunningBlog } from './fixture.js';

/** The first bytes of each accepted format, padded like a real file. */
const IMAGES = {
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1')]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  gif: Buffer.from('GIF89a\x01\0\x01\0\x80\0\0', 'latin1'),
  webp: Buffer.from('RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0', 'latin1'),
  avif: Buffer.from('\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf\0\0\0\0meta', 'latin1'),
};

describe('detectImageType: by the first bytes only', () => {
  const cases: Array<[string, Buffer, string | null]> = [
    ['PNG', IMAGES.png, 'image/png'],
    ['JPEG', IMAGES.jpeg, 'image/jpeg'],
    ['GIF 87a', Buffer.from('GIF87a\x01\0', 'latin1'), 'image/gif'],
    ['GIF 89a', IMAGES.gif, 'image/gif'],
    ['WebP', IMAGES.webp, 'image/webp'],
    ['AVIF (major brand avif)', IMAGES.avif, 'image/avif'],
    ['AVIF sequence (major brand avis)', Buffer.from('\0\0\0\x18ftypavis\0\0\0\0avismif1', 'latin1'), 'image/avif'],
    ['AVIF as a compatible brand', Buffer.from('\0\0\0\x1cftypmif1\0\0\0\0mif1avifmiaf', 'latin1'), 'image/avif'],
    ['HEIC is not AVIF', Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic', 'latin1'), null],
    ['a brand past the ftyp box does not count', Buffer.from('\0\0\0\x10ftypmif1\0\0\0\0avif', 'latin1'), null],
    ['MP4', Buffer.from('\0\0\0\x18ftypisom\0\0\0\0isomiso2', 'latin1'), null],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), null],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>'), null],
    ['RIFF that is not WebP (WAV)', Buffer.from('RIFF\x1a\0\0\0WAVEfmt ', 'latin1'), null],
    ['a truncated PNG signature', IMAGES.png.subarray(0, 7), null],
    ['empty', Buffer.alloc(0), null],
  ];
  for (const [name, bytes, expected] of cases) it(name, () => assert.equal(detectImageType(bytes)?.mediaType ?? null, expected));
});

describe('parseMediaPath: the path as sent', () => {
  const cases: Array<[string, { slug: string; name: string } | null]> = [
    ['/api/blog/media/trip/photo.png', { slug: 'trip', name: 'photo.png' }],
    ['/api/blog/media/trip/my%20photo.png', { slug: 'trip', name: 'my photo.png' }],
    ['/api/blog/media/caf%C3%A9/%C3%A9t%C3%A9.png', { slug: 'café', name: 'été.png' }],
    ['/api/blog/media/node.js/a.png', { slug: 'node.js', name: 'a.png' }],
    ['/api/blog/media/trip/..%2Findex.md', null],
    ['/api/blog/media/trip%2Fphoto.png', null],
    ['/api/blog/media/trip/sub%2Fphoto.png', null],
    ['/api/blog/media/trip/sub%5Cphoto.png', null],
    ['/api/blog/media/trip/sub/photo.png', null],
    ['/api/blog/media/../trip/photo.png', null],
    ['/api/blog/media/%2e%2e/photo.png', null],
    ['/api/blog/media/trip/..', null],
    ['/api/blog/media/trip/.hidden.png', null],
    ['/api/blog/media/trip/%2ehidden.png', null],
    ['/api/blog/media/trip/', null],
    ['/api/blog/media/trip', null],
    ['/api/blog/media//photo.png', null],
    ['/api/blog/media/trip/photo%00.png', null],
    ['/api/blog/media/trip/%E0%A4%A.png', null],
  ];
  for (const [raw, expected] of cases) it(raw, () => assert.deepEqual(parseMediaPath(raw), expected));
});

describe('GET /api/blog/media/<slug>/<file>', () => {
  const START = Date.parse('2030-01-01T00:00:00Z');
  const post = (title: string, extra = '', date = '2029-01-01') => `+++\ntitle = "${title}"\ndate = ${date}\n${extra}+++\n\n![A photo](photo.png)\n`;
  let dir: string;
  let remove: () => Promise<void>;
  let time: FakeTime;
  let blog: RunningBlog;
  before(async () => {
    ({ dir, remove } = await createTempDir('blog-media'));
    const folder = async (name: string, files: Record<string, string | Buffer>) => {
      await mkdir(path.join(dir, name));
      for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, name, file), content);
    };
    await folder('trip', {
      'index.md': post('Trip'),
      'index.fr.md': post('Voyage'),
      'photo.png': IMAGES.png,
      'photo.jpg': IMAGES.jpeg,
      'anim.gif': IMAGES.gif,
      'photo.webp': IMAGES.webp,
      'photo.avif': IMAGES.avif,
      'png-named.dat': IMAGES.png,
      'fake.png': '<html><script>alert(1)</script></html>',
      'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '.hidden.png': IMAGES.png,
    });
    await mkdir(path.join(dir, 'trip', 'sub'));
    await writeFile(path.join(dir, 'trip', 'sub', 'inner.png'), IMAGES.png);
    await symlink(path.join(dir, 'trip', 'photo.png'), path.join(dir, 'trip', 'link.png'));
    await folder('moved', { 'index.md': post('Moved', 'slug = "elsewhere"\n'), 'photo.png': IMAGES.png });
    await folder('hidden-draft', { 'index.md': post('Draft', 'draft = true\n'), 'photo.png': IMAGES.png });
    await folder('coming', { 'index.md': post('Coming', '', '2030-01-02'), 'photo.png': IMAGES.png });
    await writeFile(path.join(dir, 'flat.md'), post('Flat'));
    await writeFile(path.join(dir, 'photo.png'), IMAGES.png);
    time = createFakeTime(START);
    blog = await startBlog(dir, { deps: { clock: time.clock, timers: time } });
  });
  after(async () => {
    await blog.close();
    await remove();
  });

  it('serves each image format with its type, a strong ETag, the API Cache-Control and CORS', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['photo.png', IMAGES.png, 'image/png'],
      ['photo.jpg', IMAGES.jpeg, 'image/jpeg'],
      ['anim.gif', IMAGES.gif, 'image/gif'],
      ['photo.webp', IMAGES.webp, 'image/webp'],
      ['photo.avif', IMAGES.avif, 'image/avif'],
      ['png-named.dat', IMAGES.png, 'image/png'],
    ];
    for (const [file, bytes, type] of cases) {
      const response = await blog.app.inject({ method: 'GET', url: `/api/blog/media/trip/${file}` });
      assert.equal(response.statusCode, 200, file);
      assert.equal(response.headers['content-type'], type, file);
      assert.deepEqual(response.rawPayload, bytes, file);
      assert.equal(response.headers['content-length'], String(bytes.length));
      assert.match(String(response.headers.etag), /^"[\w-]+"$/, 'a strong ETag');
      assert.equal(response.headers['cache-control'], 'public, max-age=120');
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('serves a replaced image at once, with its new bytes and ETag', async () => {
    const url = '/api/blog/media/trip/swap.png';
    await writeFile(path.join(dir, 'trip', 'swap.png'), IMAGES.png);
    const first = await blog.app.inject({ method: 'GET', url });
    assert.deepEqual((await blog.app.inject({ method: 'GET', url })).headers.etag, first.headers.etag, 'the same answer while unchanged');
    // A new file in its place (as an upload or an editor saves it: a new inode), then an edit in place.
    await rm(path.join(dir, 'trip', 'swap.png'));
    await writeFile(path.join(dir, 'trip', 'swap.png'), IMAGES.gif);
    const second = await blog.app.inject({ method: 'GET', url });
    assert.equal(second.headers['content-type'], 'image/gif');
    assert.deepEqual(second.rawPayload, IMAGES.gif);
    assert.notEqual(second.headers.etag, first.headers.etag);
  });

  it('answers 304 to a matching If-None-Match, HEAD without a body, OPTIONS as a preflight, 405 otherwise', async () => {
    const first = await blog.request('/api/blog/media/trip/photo.png');
    const etag = String(first.headers.etag);
    const cached = await blog.request('/api/blog/media/trip/photo.png', { headers: { 'if-none-match': etag } });
    assert.deepEqual([cached.status, cached.body, cached.headers.etag, cached.headers['access-control-allow-origin']], [304, '', etag, '*']);
    const other = await blog.request('/api/blog/media/trip/photo.jpg', { headers: { 'if-none-match': etag } });
    assert.equal(other.status, 200);
    const head = await blog.request('/api/blog/media/trip/photo.png', { method: 'HEAD' });
    assert.deepEqual([head.status, head.body, head.headers['content-type'], head.headers['content-length']], [200, '', 'image/png', String(IMAGES.png.length)]);
    const preflight = await blog.request('/api/blog/media/trip/photo.png', { method: 'OPTIONS' });
    assert.deepEqual([preflight.status, preflight.headers['access-control-allow-origin']], [204, '*']);
    const post = await blog.request('/api/blog/media/trip/photo.png', { method: 'POST' });
    assert.deepEqual([post.status, post.headers.allow], [405, 'GET, HEAD, OPTIONS']);
  });

  it('finds the folder of a slug set in the front matter', async () => {
    assert.equal((await blog.request('/api/blog/media/elsewhere/photo.png')).status, 200);
    assert.equal((await blog.request('/api/blog/media/moved/photo.png')).status, 404, 'the folder name is not a slug');
  });

  it('answers 404 not_found for anything that is not an image beside a published post', async () => {
    const urls = [
      '/api/blog/media/trip/fake.png',
      '/api/blog/media/trip/icon.svg',
      '/api/blog/media/trip/index.md',
      '/api/blog/media/trip/missing.png',
      '/api/blog/media/trip/.hidden.png',
      '/api/blog/media/trip/link.png',
      '/api/blog/media/trip/sub',
      '/api/blog/media/trip/sub/inner.png',
      '/api/blog/media/trip/sub%2Finner.png',
      '/api/blog/media/trip/..%2F..%2Fphoto.png',
      '/api/blog/media/trip/%2e%2e%2fflat.md',
      '/api/blog/media/trip%2Fphoto.png',
      '/api/blog/media/..%2Ftrip/photo.png',
      '/api/blog/media/%2e%2e/photo.png',
      '/api/blog/media/trip/',
      '/api/blog/media/trip',
      '/api/blog/media/',
      '/api/blog/media/nope/photo.png',
      '/api/blog/media/flat/photo.png',
      '/api/blog/media/hidden-draft/photo.png',
      '/api/blog/media/coming/photo.png',
    ];
    for (const url of urls) {
      const response = await blog.request(url);
      assert.equal(response.status, 404, url);
      assert.deepEqual(response.json, { error: 'not_found' }, url);
      assert.equal(response.headers['access-control-allow-origin'], '*', url);
    }
  });

  it('makes relative links absolute in the detail html and both feeds; a post without a folder keeps them', async () => {
    const media = 'https://blog.example.com/api/blog/media/trip/photo.png';
    assert.match((await blog.request('/api/blog/posts/trip')).json.html, new RegExp(`<img src="${media}" alt="A photo" />`));
    assert.match((await blog.request('/api/blog/posts/trip?lang=fr')).json.html, new RegExp(`<img src="${media}"`), 'a translation in the folder too');
    assert.match((await blog.request('/api/blog/posts/elsewhere')).json.html, /src="https:\/\/blog\.example\.com\/api\/blog\/media\/elsewhere\/photo\.png"/);
    assert.match((await blog.request('/api/blog/feed.xml')).body, new RegExp(`&lt;img src=&quot;${media}&quot;`));
    const items = (await blog.request('/api/blog/feed.json')).json.items as Array<{ title: string; content_html: string }>;
    assert.match(items.find((item) => item.title === 'Trip')!.content_html, new RegExp(`src="${media}"`));
    assert.match((await blog.request('/api/blog/posts/flat')).json.html, /<img src="photo\.png" alt="A photo" \/>/);
  });

  it('serves a scheduled post\'s images from its moment on', async () => {
    await time.advance(Date.parse('2030-01-02') - START);
    await waitFor('the release', async () => ((await blog.request('/api/blog/posts/coming')).status === 200 ? true : undefined), 5000);
    const response = await blog.request('/api/blog/media/coming/photo.png');
    assert.deepEqual([response.status, response.headers['content-type']], [200, 'image/png']);
  });
});
