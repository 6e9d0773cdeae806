// Blog media in the bucket ([blog] media_storage = "s3", docs/blog.md "Media in storage") against s3rver: an image
// uploaded through /admin on one replica is served by another that shares only the bucket, with the headers a file
// in content_dir gets; HTML and SVG named like images are refused and never reach the bucket; the editor lists
// and deletes images there; a second upload of the same name gets a free one.
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { composeServices, type ComposedServices } from '../../src/app/compose.js';
import { testHash, PASSWORD } from '../admin/admin-app.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type ServiceDriver } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { startS3, type TestS3 } from '../support/s3-server.js';
import { createTempDir } from '../support/temp-dir.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');
const POST = '+++\ntitle = "Trip"\ndate = 2024-05-01\n+++\n![The lake](lake.png)\n';

interface Replica {
  dir: string;
  composed: ComposedServices;
  blog: ServiceDriver;
}

describe('blog media in S3 storage', () => {
  let s3: TestS3;
  let temp: { dir: string; remove(): Promise<void> };
  const replicas: Replica[] = [];

  before(async () => {
    [s3, temp] = await Promise.all([startS3(), createTempDir('media-storage')]);
  });
  after(async () => {
    for (const replica of replicas) await replica.composed.close();
    await Promise.all([s3.close(), temp.remove()]);
  });

  /** A replica in a folder of its own (its data_dir and content_dir), the post files written there first. */
  async function startReplica(name: string, files: Record<string, string | Buffer>, mediaStorage: 's3' | 'content_dir' = 's3', storage = s3.storage): Promise<Replica> {
    const dir = path.join(temp.dir, name);
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, 'posts', file)), { recursive: true });
      await writeFile(path.join(dir, 'posts', file), content);
    }
    const config = loadTestConfig(
      {
        data_dir: 'data',
        site: { title: 'Blog', base_url: 'http://localhost:8081' },
        blog: { listen: '127.0.0.1:0', content_dir: 'posts', media_storage: mediaStorage },
        admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
        ...(mediaStorage === 's3' ? { storage } : {}),
      },
      dir,
    );
    const composed = await composeServices(config, captureLogs());
    const replica = { dir, composed, blog: driveService(composed.services.find((service) => service.name === 'blog')!) };
    replicas.push(replica);
    return replica;
  }

  async function signIn(blog: ServiceDriver): Promise<{ cookie: string; csrf: string }> {
    const response = await blog.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.statusCode, 303);
    const cookie = String(response.headers['set-cookie']).split(';', 1)[0]!;
    const page = await blog.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
    return { cookie, csrf: /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]! };
  }

  function upload(blog: ServiceDriver, session: { cookie: string; csrf: string }, file: string, name: string, bytes: Buffer) {
    const boundary = 'postbox-media-boundary';
    const fields = [
      ['csrf_token', session.csrf],
      ['file', file],
    ].map(([field, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`);
    const payload = Buffer.concat([
      Buffer.from(fields.join('')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return blog.inject({
      method: 'POST',
      url: '/admin/posts/upload.json',
      payload,
      headers: { cookie: session.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  it('serves an image uploaded on one replica from another sharing only the bucket, with the headers of content_dir', async () => {
    const first = await startReplica('first', { 'trip.md': POST });
    const session = await signIn(first.blog);

    const html = await upload(first.blog, session, 'trip.md', 'page.png', Buffer.from('<html><script>alert(1)</script></html>'));
    assert.equal(html.statusCode, 415);
    const svg = await upload(first.blog, session, 'trip.md', 'logo.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    assert.equal(svg.statusCode, 415);
    assert.deepEqual(await s3.keys(), [], 'nothing refused reaches the bucket');

    const stored = await upload(first.blog, session, 'trip.md', 'lake.png', PNG);
    assert.equal(stored.statusCode, 200, stored.body);
    assert.deepEqual(JSON.parse(stored.body), { file: 'trip/index.md', name: 'lake.png', markdown: '![](lake.png)', bytes: PNG.length });
    assert.deepEqual(await s3.keys(), ['media/trip/lake.png']);
    assert.deepEqual(await readdir(path.join(first.dir, 'posts', 'trip')), ['index.md'], 'the image is not in content_dir');
    const put = s3.requests.find((request) => request.method === 'PUT');
    assert.equal(put?.headers['content-length'], String(PNG.length), 'a plain body with its length');

    const again = await upload(first.blog, session, 'trip/index.md', 'lake.png', PNG);
    assert.equal(JSON.parse(again.body).name, 'lake-2.png', 'never over an image in the bucket');

    // The other replica has the post (as deployed) but none of the images.
    const second = await startReplica('second', { 'trip/index.md': POST });
    const served = await second.blog.inject({ method: 'GET', url: '/api/blog/media/trip/lake.png' });
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, PNG);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    const etag = String(served.headers.etag);
    const unchanged = await second.blog.inject({ method: 'GET', url: '/api/blog/media/trip/lake.png', headers: { 'if-none-match': etag } });
    assert.equal(unchanged.statusCode, 304);
    const head = await second.blog.inject({ method: 'HEAD', url: '/api/blog/media/trip/lake.png' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const post = JSON.parse((await second.blog.inject({ method: 'GET', url: '/api/blog/posts/trip' })).body) as { html: string };
    assert.match(post.html, /src="http:\/\/localhost:8081\/api\/blog\/media\/trip\/lake\.png"/);
    assert.equal((await second.blog.inject({ method: 'GET', url: '/api/blog/media/trip/missing.png' })).statusCode, 404);

    // The same image in content_dir, the switch off: the same headers.
    const onDisk = await startReplica('on-disk', { 'trip/index.md': POST, 'trip/lake.png': PNG }, 'content_dir');
    const fromDisk = await onDisk.blog.inject({ method: 'GET', url: '/api/blog/media/trip/lake.png' });
    assert.equal(fromDisk.statusCode, 200);
    const { date: _servedDate, ...servedHeaders } = served.headers;
    const { date: _diskDate, ...diskHeaders } = fromDisk.headers;
    assert.deepEqual(servedHeaders, diskHeaders);
  });

  it('lists the bucket\'s images in the editor and deletes one there, after which no replica serves it', async () => {
    const first = replicas.find((replica) => replica.dir.endsWith('first'))!;
    const second = replicas.find((replica) => replica.dir.endsWith('second'))!;
    const session = await signIn(first.blog);
    const editor = await first.blog.inject({ method: 'GET', url: '/admin/posts/edit?file=trip%2Findex.md', headers: { cookie: session.cookie } });
    assert.match(editor.body, /<code>lake\.png<\/code>/);
    assert.match(editor.body, /<code>lake-2\.png<\/code>/);
    const preview = await first.blog.inject({
      method: 'POST',
      url: '/admin/posts/preview.json',
      payload: new URLSearchParams({ csrf_token: session.csrf, file: 'trip/index.md', body: '![](lake-2.png)' }).toString(),
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.match((JSON.parse(preview.body) as { html: string }).html, new RegExp(`src="data:image/png;base64,${PNG.toString('base64').replace(/[+/]/g, '\\$&')}"`), 'the preview inlines the image from the bucket');

    const fields = { csrf_token: session.csrf, file: 'trip/index.md', name: 'lake.png' };
    const post = (extra: Record<string, string>) =>
      first.blog.inject({
        method: 'POST',
        url: '/admin/posts/images/delete',
        payload: new URLSearchParams({ ...fields, ...extra }).toString(),
        headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      });
    const asked = await post({});
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /deleted from the\s+media storage/);
    const deleted = await post({ confirm: 'yes' });
    assert.equal(deleted.statusCode, 303);
    assert.match(String(deleted.headers.location), /notice=image_removed/);
    assert.deepEqual(await s3.keys(), ['media/trip/lake-2.png']);
    assert.equal((await second.blog.inject({ method: 'GET', url: '/api/blog/media/trip/lake.png' })).statusCode, 404);
    assert.equal((await post({ confirm: 'yes' })).statusCode, 404, 'gone: no such image');
  });

  it('answers 500, never 404, when the bucket refuses the request', async () => {
    const refused = await startReplica('refused', { 'trip/index.md': POST }, 's3', { ...s3.storage, access_key_id: 'NOBODY' });
    const answer = await refused.blog.inject({ method: 'GET', url: '/api/blog/media/trip/lake-2.png' });
    assert.equal(answer.statusCode, 500);
    assert.doesNotMatch(answer.body, /NOBODY|InvalidAccessKeyId|media\//, 'nothing of the store in the answer');
  });
});
