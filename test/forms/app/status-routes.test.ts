// GET /health and GET /metrics (docs/forms-api.md "/metrics").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COUNTER_NAMES } from '../../../src/forms/metrics.js';
import { contactForm, useTestFormsService } from '../../support/forms-app.js';

const start = useTestFormsService();

describe('GET /health', () => {
  it('200 {"status":"ok","forms":N} as application/json; charset=utf-8, never rate limited or CORS-checked', async () => {
    const forms = await start({
      forms: [contactForm({ rate_limit_per_hour: 1 }), { path: '/feedback', type: 'feedback' }],
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await forms.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(response.json(), { status: 'ok', forms: 2 });
      assert.equal(response.headers['access-control-allow-origin'], undefined);
    }
  });
});

describe('GET /metrics', () => {
  it('every one of the 16 counters, the queue\'s 3 and the spam checks\' 12 in totals and per form, 0 before anything happened, no CORS headers', async () => {
    const forms = await start({ forms: [contactForm(), { path: '/feedback', type: 'feedback' }] });
    const response = await forms.app.inject({ method: 'GET', url: '/metrics', headers: { origin: 'https://example.com' } });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.headers['access-control-allow-origin'], undefined);
    const body = response.json();
    assert.equal(COUNTER_NAMES.length, 31);
    assert.deepEqual(COUNTER_NAMES.slice(16, 19), ['queued', 'queue_retried', 'queue_failed']);
    assert.deepEqual(COUNTER_NAMES.slice(19, 21), ['spam_quarantined', 'spam_rejected']);
    const zeros = Object.fromEntries(COUNTER_NAMES.map((name) => [name, 0]));
    assert.deepEqual(body, { totals: zeros, forms: { '/contact': zeros, '/feedback': zeros } });
  });

  it('totals add up the forms', async () => {
    const forms = await start({ forms: [contactForm(), { path: '/feedback', type: 'feedback' }] });
    const post = (url: string) => forms.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{}' });
    await post('/contact');
    await post('/feedback');
    await post('/feedback');
    const body = await forms.metrics();
    assert.equal(body.forms['/contact']?.validation_failed, 1);
    assert.equal(body.forms['/feedback']?.validation_failed, 2);
    assert.equal(body.totals.validation_failed, 3);
    assert.equal(body.totals.received, 3);
  });

  it('with metrics_token: a missing or wrong bearer token is 401 {"error":"unauthorized"} with WWW-Authenticate: Bearer', async () => {
    const forms = await start({ extra: { server: { metrics_token: 's3cret-token' } } });
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer s3cret-toke', 'Bearer s3cret-token-longer', 'Basic s3cret-token', 's3cret-token', 'Bearer ']) {
      const response = await forms.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      assert.equal(response.statusCode, 401, String(authorization));
      assert.deepEqual(response.json(), { error: 'unauthorized' });
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    for (const authorization of ['Bearer s3cret-token', 'bearer s3cret-token']) {
      const response = await forms.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      assert.equal(response.statusCode, 200, authorization);
      assert.ok(response.json().totals);
    }
  });

  it('without metrics_token the endpoint is open', async () => {
    const forms = await start();
    const response = await forms.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
  });
});
