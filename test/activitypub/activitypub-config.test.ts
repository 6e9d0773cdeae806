// [blog.activitypub] as composed (docs/activitypub.md): Fedify is not loaded at start, even with ActivityPub on,
// only at the first request for it; the actor is a Service whose key pair is made once and kept; a badly signed
// activity is refused without reaching a private address; and ActivityPub runs without [mail].
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { loadTestConfig } from '../support/config.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { withTempDir } from '../support/temp-dir.js';

const BLOG = {
  data_dir: 'data',
  mail: { from: 'blog@example.com', to: 'owner@example.com' },
  site: { title: 'The Blog', base_url: 'https://blog.example.com' },
  blog: { listen: '127.0.0.1:0', content_dir: 'posts', activitypub: { enabled: true } },
};

const fedifyLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes(`${path.sep}@fedify${path.sep}`));

describe('[blog.activitypub]', () => {
  it('loads Fedify at the first request, serves a Service and keeps its key pair across starts', async () => {
    await withTempDir('activitypub-config', async (dir) => {
      await mkdir(path.join(dir, 'posts'));
      const actorOf = async (loadedAtStart: boolean) => {
        const composed = await composeServices(loadTestConfig(BLOG, dir), captureLogs());
        try {
          assert.equal(fedifyLoaded(), loadedAtStart);
          const blog = driveService(composed.services[0]!);
          const answer = await blog.inject({ method: 'GET', url: '/activitypub/users/blog', headers: { accept: 'application/activity+json' } });
          assert.equal(answer.statusCode, 200);
          // A browser opening an Article is sent to the post's page.
          const page = await blog.inject({ method: 'GET', url: '/activitypub/posts/en/hello', headers: { accept: 'text/html' } });
          assert.deepEqual([page.statusCode, page.headers.location], [303, 'https://blog.example.com/blog/hello']);
          return answer.json() as { type: string; preferredUsername: string; publicKey: { publicKeyPem: string } };
        } finally {
          await composed.close();
        }
      };
      await writeFile(path.join(dir, 'posts', 'hello.md'), '---\ntitle: Hello\ndate: 2024-05-01\n---\nText.\n');
      const first = await actorOf(false);
      assert.equal(fedifyLoaded(), true);
      assert.equal(first.type, 'Service');
      assert.equal(first.preferredUsername, 'blog');
      assert.equal((await actorOf(true)).publicKey.publicKeyPem, first.publicKey.publicKeyPem);
      assert.ok(JSON.parse(await readFile(path.join(dir, 'data', 'activitypub', 'keys.json'), 'utf8')).privateKey);
    });
  });

  it('answers 401 to a badly signed activity, without fetching a key from a private address', async () => {
    let fetched = 0;
    const keyServer = await listenOnLoopback(createServer((_request, response) => void ((fetched += 1), response.writeHead(404).end())));
    try {
      await withTempDir('activitypub-config', async (dir) => {
        await mkdir(path.join(dir, 'posts'));
        const composed = await composeServices(loadTestConfig(BLOG, dir), captureLogs());
        try {
          const keyId = `http://127.0.0.1:${keyServer.port}/users/mallory#main-key`;
          const payload = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `http://127.0.0.1:${keyServer.port}/f/1`, type: 'Follow', actor: `http://127.0.0.1:${keyServer.port}/users/mallory`, object: 'https://blog.example.com/activitypub/users/blog' });
          const answer = await driveService(composed.services[0]!).inject({
            method: 'POST',
            url: '/activitypub/inbox',
            headers: {
              host: 'blog.example.com',
              'content-type': 'application/activity+json',
              date: new Date().toUTCString(),
              digest: `SHA-256=${createHash('sha256').update(payload).digest('base64')}`,
              signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"`,
            },
            payload,
          });
          assert.equal(answer.statusCode, 401);
          assert.equal(fetched, 0);
        } finally {
          await composed.close();
        }
      });
    } finally {
      await keyServer.close();
    }
  });

  it('needs no [mail]: without it, or without its queue, the activities have a queue of their own', async () => {
    await withTempDir('activitypub-config', async (dir) => {
      await mkdir(path.join(dir, 'posts'));
      for (const mail of [undefined, { ...BLOG.mail, queue: false }]) {
        const config = loadTestConfig({ ...BLOG, mail }, dir);
        const composed = await composeServices(config, captureLogs());
        try {
          const blog = composed.services.find((service) => service.name === 'blog')!;
          const actor = await driveService(blog).inject({ method: 'GET', url: '/activitypub/users/blog', headers: { accept: 'application/activity+json' } });
          assert.equal(actor.statusCode, 200);
        } finally {
          await composed.close();
        }
      }
    });
  });
});
