// /metrics of a set-up without forms (docs/forms-api.md "/metrics"): the blog's listener serves it, with the
// request histogram and the process, no form counters, behind metrics_token when set; with forms it stays on the
// forms listener only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import type { TomlTable } from 'smol-toml';
import { loadTestConfig } from '../support/config.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';

const BLOG_ONLY: TomlTable = {
  data_dir: 'data',
  site: { title: 'Blog', base_url: 'https://example.com' },
  blog: { listen: '127.0.0.1:0', content_dir: 'posts' },
};

/** The services of `table`, composed in a fresh directory, handed to `use` and closed after. */
async function withServices(table: TomlTable, use: (services: Awaited<ReturnType<typeof composeServices>>['services']) => Promise<void>): Promise<void> {
  await withTempDir('blog-metrics', async (dir) => {
    await mkdir(path.join(dir, 'posts'));
    const composed = await composeServices(loadTestConfig(table, dir), captureLogs());
    try {
      await use(composed.services);
    } finally {
      await composed.close();
    }
  });
}

describe('/metrics without forms', () => {
  it('is served on the blog listener: the request histogram and the process, no form counters, passing promtool', async () => {
    await withServices(BLOG_ONLY, async (services) => {
      assert.deepEqual(services.map((service) => service.name), ['blog']);
      const blog = driveService(services[0]!);
      await blog.inject({ method: 'GET', url: '/api/blog/posts' });
      const text = await blog.inject({ method: 'GET', url: '/metrics', headers: { accept: 'text/plain' } });
      assert.equal(text.statusCode, 200);
      assert.equal(text.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      assert.match(text.body, /^postbox_http_request_duration_seconds_count\{route="\/api\/blog\/posts",method="GET",status="200"\} 1$/m);
      assert.match(text.body, /^process_cpu_user_seconds_total /m);
      assert.doesNotMatch(text.body, /postbox_form_|postbox_spam_|postbox_queue_/);
      const check = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: text.body, encoding: 'utf8' });
      assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
      const json = await blog.inject({ method: 'GET', url: '/metrics' });
      assert.deepEqual(json.json(), { totals: {}, forms: {} });
    });
  });

  it('keeps to metrics_token on the blog listener', async () => {
    await withServices({ ...BLOG_ONLY, server: { metrics_token: 's3cret-token' } }, async (services) => {
      const blog = driveService(services[0]!);
      const refused = await blog.inject({ method: 'GET', url: '/metrics?format=prometheus' });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.headers['www-authenticate'], 'Bearer');
      const allowed = await blog.inject({ method: 'GET', url: '/metrics?format=prometheus', headers: { authorization: 'Bearer s3cret-token' } });
      assert.equal(allowed.statusCode, 200);
    });
  });

  it('stays on the forms listener only when there are forms', async () => {
    const table: TomlTable = {
      ...BLOG_ONLY,
      server: { listen: '127.0.0.1:0' },
      mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    };
    await withServices(table, async (services) => {
      const forms = driveService(services.find((service) => service.name === 'forms')!);
      const blog = driveService(services.find((service) => service.name === 'blog')!);
      assert.equal((await forms.inject({ method: 'GET', url: '/metrics' })).statusCode, 200);
      assert.equal((await blog.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
    });
  });
});
