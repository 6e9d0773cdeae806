// /admin as `postbox serve` builds it: on the blog service's listener, or the forms service's without [blog]; its
// sessions in data_dir surviving a new composition of the services.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { captureLogs } from '../support/log-capture.js';
import { loadTestConfig } from '../support/config.js';
import { driveService } from '../support/http.js';
import { withTempDir } from '../support/temp-dir.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';

async function configIn(dir: string, withBlog: boolean) {
  await mkdir(path.join(dir, 'posts'), { recursive: true });
  const admin = { users: [{ name: 'jane', password_hash: await testHash() }] };
  const blog = { site: { title: 'Blog', base_url: 'https://example.com' }, blog: { listen: '127.0.0.1:0', content_dir: 'posts' } };
  const forms = {
    server: { listen: '127.0.0.1:0' },
    mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
    forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
  };
  return loadTestConfig({ data_dir: 'data', ...forms, ...(withBlog ? blog : {}), admin }, dir);
}

async function signInThrough(drive: ReturnType<typeof driveService>): Promise<string> {
  const response = await drive.inject({
    method: 'POST',
    url: '/admin/login',
    payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(response.statusCode, 303);
  assert.match(String(response.headers['set-cookie']), /; Secure$/, 'an https site: Secure cookies');
  return String(response.headers['set-cookie']).split(';', 1)[0] as string;
}

describe('/admin in the composed services', () => {
  it('is served by the blog service, with Secure cookies for an https site, and its sessions survive a restart', async () => {
    await withTempDir('admin-mount', async (dir) => {
      const config = await configIn(dir, true);
      const first = await composeServices(config, captureLogs());
      const blog = first.services.find((service) => service.name === 'blog')!;
      const forms = first.services.find((service) => service.name === 'forms')!;
      assert.ok(blog.serverSettings.maxBodyBytes >= 10 * 1024 * 1024, 'the blog listener lets uploads through 100-continue');
      assert.equal((await driveService(forms).inject({ method: 'GET', url: '/admin/login' })).statusCode, 404);
      const cookie = await signInThrough(driveService(blog));
      await first.close();

      const second = await composeServices(config, captureLogs());
      try {
        const page = await driveService(second.services.find((service) => service.name === 'blog')!).inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
        assert.equal(page.statusCode, 200);
        // The blog's own routes are still there.
        const posts = await driveService(second.services.find((service) => service.name === 'blog')!).inject({ method: 'GET', url: '/api/blog/posts' });
        assert.equal(posts.statusCode, 200);
      } finally {
        await second.close();
      }
    });
  });

  it('is served by the forms service when there is no [blog]', async () => {
    await withTempDir('admin-mount-forms', async (dir) => {
      const composed = await composeServices(await configIn(dir, false), captureLogs());
      try {
        const forms = driveService(composed.services[0]!);
        const page = await forms.inject({ method: 'GET', url: '/admin/login' });
        assert.equal(page.statusCode, 200);
        assert.equal(page.headers['cache-control'], 'no-store');
        const response = await forms.inject({
          method: 'POST',
          url: '/admin/login',
          payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.doesNotMatch(String(response.headers['set-cookie']), /Secure/, 'no https URL in the file: cookies over plain http');
      } finally {
        await composed.close();
      }
    });
  });
});
