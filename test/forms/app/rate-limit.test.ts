// The token bucket per form and client IP through the routes (docs/submission-rules.md "Rate limit"):
// which requests take a token, Retry-After, proxy headers, and the snapshot across a graceful restart.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { contactForm, createTestFormsService, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { createTempDir } from '../../support/temp-dir.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };
const start = useTestFormsService();

function post(forms: TestFormsService, options: { ip?: string; headers?: Record<string, string>; payload?: string } = {}) {
  return forms.app.inject({
    method: 'POST',
    url: '/contact',
    remoteAddress: options.ip ?? '203.0.113.7',
    headers: { 'content-type': 'application/json', ...options.headers },
    payload: options.payload ?? JSON.stringify(ADA),
  });
}

describe('token bucket per form and client IP', () => {
  it('a full bucket of rate_limit_per_hour, then 429 with Retry-After; refills at perHour/3600 per second', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 2 })] });
    assert.equal((await post(forms)).statusCode, 200);
    assert.equal((await post(forms)).statusCode, 200);
    const limited = await post(forms);
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error, 'rate_limited');
    assert.equal(typeof limited.json().message, 'string');
    assert.equal(limited.headers['retry-after'], '1800', 'one token comes back every 1800 s');
    forms.clock.advance(1_799_000);
    assert.equal((await post(forms)).headers['retry-after'], '1');
    forms.clock.advance(1_000);
    assert.equal((await post(forms)).statusCode, 200);
    const metrics = (await forms.metrics()).forms['/contact'];
    assert.deepEqual([metrics?.rate_limited, metrics?.received, metrics?.sent], [2, 5, 3]);
  });

  it('every POST past the origin check takes a token, whatever happens after; a 403 does not', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 3 })] });
    assert.equal((await post(forms, { payload: '{broken' })).statusCode, 400);
    assert.equal((await post(forms, { payload: JSON.stringify({ email: 'x' }) })).statusCode, 400);
    assert.equal((await post(forms, { headers: { origin: 'https://evil.example' } })).statusCode, 403);
    assert.equal((await post(forms, { payload: JSON.stringify({ ...ADA, website: 'bot' }) })).statusCode, 200);
    assert.equal((await post(forms)).statusCode, 429, 'the rate limit comes before the body is read');
    assert.equal((await post(forms, { payload: '{broken' })).statusCode, 429);
  });

  it('buckets are per IP and per form; 0 disables limiting', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1 }), { path: '/open', type: 'contact', rate_limit_per_hour: 0 }] });
    assert.equal((await post(forms, { ip: '198.51.100.1' })).statusCode, 200);
    assert.equal((await post(forms, { ip: '198.51.100.1' })).statusCode, 429);
    assert.equal((await post(forms, { ip: '198.51.100.2' })).statusCode, 200);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await forms.app.inject({ method: 'POST', url: '/open', remoteAddress: '198.51.100.1', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(ADA) });
      assert.equal(response.statusCode, 200);
    }
  });

  it('OPTIONS, /health and /metrics never take tokens', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1 })] });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      assert.equal((await forms.app.inject({ method: 'OPTIONS', url: '/contact', remoteAddress: '203.0.113.7', headers: { origin: 'https://example.com' } })).statusCode, 204);
      assert.equal((await forms.app.inject({ method: 'GET', url: '/health', remoteAddress: '203.0.113.7' })).statusCode, 200);
      assert.equal((await forms.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode, 200);
    }
    assert.equal((await post(forms)).statusCode, 200);
  });

  it('without trust_proxy_headers, X-Forwarded-For does not change the bucket', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1 })] });
    assert.equal((await post(forms, { headers: { 'x-forwarded-for': '192.0.2.1' } })).statusCode, 200);
    assert.equal((await post(forms, { headers: { 'x-forwarded-for': '192.0.2.2' } })).statusCode, 429);
  });

  it('with trust_proxy_headers, the X-Forwarded-For hop the proxy appended is the client, then X-Real-IP', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1 })], extra: { server: { trust_proxy_headers: true } } });
    assert.equal((await post(forms, { headers: { 'x-forwarded-for': '10.0.0.1, 192.0.2.1' } })).statusCode, 200);
    assert.equal((await post(forms, { headers: { 'x-forwarded-for': '192.0.2.1' } })).statusCode, 429);
    assert.equal((await post(forms, { headers: { 'x-forwarded-for': '192.0.2.1, 192.0.2.2' } })).statusCode, 200);
    assert.equal((await post(forms, { headers: { 'x-real-ip': '192.0.2.3' } })).statusCode, 200);
    assert.equal((await post(forms, { headers: { 'x-real-ip': '192.0.2.3' } })).statusCode, 429);
    const ips = forms.logs.lines().filter((line) => line.msg === 'request').map((line) => line.ip);
    assert.deepEqual(ips, ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.3']);
  });
});

describe('rate-limit snapshot', () => {
  it('shutdown writes data_dir/ratelimit-snapshot.json; a restart on it keeps the IP limited, with refill for the downtime', async () => {
    const temp = await createTempDir('snapshot');
    try {
      const first = await createTestFormsService({ dataDir: temp.dir, forms: [contactForm({ rate_limit_per_hour: 2 })] });
      assert.equal((await post(first)).statusCode, 200);
      assert.equal((await post(first)).statusCode, 200);
      assert.equal((await post(first)).statusCode, 429);
      await first.close();
      const snapshot = JSON.parse(await readFile(path.join(temp.dir, 'ratelimit-snapshot.json'), 'utf8'));
      assert.ok(JSON.stringify(snapshot).includes('203.0.113.7'));

      const second = await start({ dataDir: temp.dir, forms: [contactForm({ rate_limit_per_hour: 2 })] });
      const limited = await post(second);
      assert.equal(limited.statusCode, 429, 'same IP still limited after the restart');
      assert.equal(limited.headers['retry-after'], '1800');
      assert.equal((await post(second, { ip: '198.51.100.9' })).statusCode, 200, 'other IPs start full');
      assert.ok(second.logs.lines().some((line) => line.event === 'ratelimit_snapshot_loaded'));

      await second.close();
      const third = await start({ dataDir: temp.dir, forms: [contactForm({ rate_limit_per_hour: 2 })] });
      third.clock.advance(1_800_000); // half an hour later: one token back
      assert.equal((await post(third)).statusCode, 200);
      assert.equal((await post(third)).statusCode, 429);
      await third.close();
    } finally {
      await temp.remove();
    }
  });

  it('a corrupt snapshot is logged and ignored', async () => {
    const temp = await createTempDir('snapshot');
    try {
      await writeFile(path.join(temp.dir, 'ratelimit-snapshot.json'), '{"version":1,"savedAt', 'utf8');
      const forms = await start({ dataDir: temp.dir, forms: [contactForm({ rate_limit_per_hour: 1 })] });
      assert.equal((await post(forms)).statusCode, 200);
      const line = forms.logs.lines().find((entry) => entry.event === 'ratelimit_snapshot_corrupt');
      assert.equal(line?.level, 40);
      await forms.close();
    } finally {
      await temp.remove();
    }
  });
});
