// How the routes call the newsletter (src/newsletter/index.ts): signup after validation and honeypot,
// each outcome's answer, and GET <path>/confirm's page and headers. The newsletter itself is faked here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FormConfig } from '../../../src/config/config.js';
import type { ConfirmOutcome, Newsletter, SignupOutcome } from '../../../src/newsletter/index.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';

interface FakeNewsletter extends Newsletter {
  signups: Array<{ form: string; email: string }>;
  confirms: Array<{ form: string; token: string | undefined }>;
  outcome: SignupOutcome;
  confirmOutcome: ConfirmOutcome;
  closed: boolean;
}

function createFakeNewsletter(): FakeNewsletter {
  const fake: FakeNewsletter = {
    signups: [],
    confirms: [],
    outcome: 'ok',
    confirmOutcome: 'confirmed',
    closed: false,
    async signup(form: FormConfig, email: string) {
      fake.signups.push({ form: form.path, email });
      return fake.outcome;
    },
    async confirm(form: FormConfig, token: string | undefined) {
      fake.confirms.push({ form: form.path, token });
      return fake.confirmOutcome;
    },
    confirmState: async () => 'live',
    isUnsubscribeToken: async () => false,
    unsubscribe: async () => 'bad_token',
    remove: async () => 'not_subscribed',
    unsubscribeLinkFor: async () => '',
    listHeadersFor: async () => ({ id: '', unsubscribeUrl: '' }),
    listHeadersOf: async () => ({ id: '', unsubscribeUrl: '' }),
    isSubscribed: async () => false,
    listSubscribers: async () => [],
    preferences: { view: async () => undefined, save: async () => ({ kind: 'bad_token' }), leaveAll: async () => ({ kind: 'bad_token' }), leave: async () => ({ kind: 'bad_token' }), linkFor: async () => '' },
    async close() {
      fake.closed = true;
    },
  };
  return fake;
}

const startService = useTestFormsService();

function start(newsletter: FakeNewsletter, form: Record<string, unknown> = {}): Promise<TestFormsService> {
  return startService({
    forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], ...form }],
    extra: { server: { public_url: 'https://forms.example.com' } },
    deps: { createNewsletter: async () => newsletter },
  });
}

function signUp(forms: TestFormsService, body: unknown) {
  return forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

describe('newsletter POST', () => {
  it('ok and duplicate are answered identically: 200 {"ok":true}; signup gets the trimmed address', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    const first = await signUp(forms, { email: '  ada@example.org ' });
    newsletter.outcome = 'duplicate';
    const second = await signUp(forms, { email: 'ada@example.org' });
    for (const response of [first, second]) {
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '{"ok":true}');
    }
    assert.deepEqual(newsletter.signups, [
      { form: '/newsletter', email: 'ada@example.org' },
      { form: '/newsletter', email: 'ada@example.org' },
    ]);
    assert.equal(forms.mailer.sent.length, 0, 'the routes send no mail of their own for newsletter forms');
  });

  it('with redirect_url, ok and duplicate are both 303 to it', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter, { redirect_url: 'https://example.com/check-your-inbox' });
    for (const outcome of ['ok', 'duplicate'] as const) {
      newsletter.outcome = outcome;
      const response = await signUp(forms, { email: 'ada@example.org' });
      assert.equal(response.statusCode, 303, outcome);
      assert.equal(response.headers.location, 'https://example.com/check-your-inbox');
    }
  });

  it('storage_failed and send_failed become 500 with their codes', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    for (const outcome of ['storage_failed', 'send_failed'] as const) {
      newsletter.outcome = outcome;
      const response = await signUp(forms, { email: 'ada@example.org' });
      assert.equal(response.statusCode, 500);
      assert.equal(response.json().error, outcome);
      assert.equal(typeof response.json().message, 'string');
    }
  });

  it('invalid address and honeypot hits never reach signup; name and message are not required', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    const invalid = await signUp(forms, { email: 'not an address' });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(invalid.json().details.map((detail: { field: string }) => detail.field), ['email']);
    const trapped = await signUp(forms, { email: 'ada@example.org', website: 'x' });
    assert.equal(trapped.statusCode, 200);
    assert.deepEqual(newsletter.signups, []);
    const metrics = (await forms.metrics()).forms['/newsletter'];
    assert.deepEqual([metrics?.validation_failed, metrics?.honeypot_blocked, metrics?.received], [1, 1, 2]);
  });

  it('shutdown closes the newsletter', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    await forms.close();
    assert.equal(newsletter.closed, true);
  });
});

describe('GET <path>/confirm', () => {
  for (const page of [
    { outcome: 'confirmed', status: 200, title: 'Subscription confirmed' },
    { outcome: 'gone', status: 410, title: 'This link is used or expired' },
    { outcome: 'not_saved', status: 500, title: 'Your confirmation could not be saved' },
  ] as const) {
    it(`answers "${page.outcome}" with its page, status ${page.status}, text/html, no-store and no-referrer`, async () => {
      const newsletter = createFakeNewsletter();
      newsletter.confirmOutcome = page.outcome;
      const forms = await start(newsletter);
      const response = await forms.app.inject({ method: 'GET', url: '/newsletter/confirm?token=abc_DEF-123' });
      assert.equal(response.statusCode, page.status);
      assert.match(response.body, new RegExp(`<h1>${page.title}</h1>`));
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers['referrer-policy'], 'no-referrer');
      assert.deepEqual(newsletter.confirms, [{ form: '/newsletter', token: 'abc_DEF-123' }]);
    });
  }

  it('a missing token is passed as undefined; the token never reaches the log', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    await forms.app.inject({ method: 'GET', url: '/newsletter/confirm' });
    await forms.app.inject({ method: 'GET', url: '/newsletter/confirm?token=TOPSECRETTOKEN' });
    assert.deepEqual(newsletter.confirms.map((call) => call.token), [undefined, 'TOPSECRETTOKEN']);
    assert.ok(!forms.logs.text().includes('TOPSECRETTOKEN'));
    const paths = forms.logs.lines().filter((line) => line.msg === 'request').map((line) => line.path);
    assert.deepEqual(paths, ['/newsletter/confirm', '/newsletter/confirm']);
  });

  it('other methods on the confirm path, HEAD included, are 405 with Allow: GET and redeem nothing', async () => {
    const newsletter = createFakeNewsletter();
    const forms = await start(newsletter);
    for (const method of ['HEAD', 'POST', 'DELETE'] as const) {
      const response = await forms.app.inject({ method, url: '/newsletter/confirm?token=abc' });
      assert.equal(response.statusCode, 405, method);
      assert.equal(response.headers.allow, 'GET');
      assert.equal(response.body, '');
    }
    assert.deepEqual(newsletter.confirms, []);
  });
});
