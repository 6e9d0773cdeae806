// Unsubscribing and the button confirmation through the service's front door, with the real newsletter over a
// temp data_dir: GET and HEAD change nothing, POST (the button or RFC 8058's one-click body) does, a bad token
// is 400, twice is harmless, and signing up again after leaving starts a new double opt-in.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createUnsubscribeToken } from '../../../src/newsletter/unsubscribe-token.js';
import { readJsonLines } from '../../../src/kit/files/jsonl.js';
import { tokenOf } from '../../support/newsletter.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';

const startService = useTestFormsService();
const EMAIL = 'Ada@Example.org';

function start(form: Record<string, unknown> = {}): Promise<TestFormsService> {
  return startService({
    forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], ...form }],
    extra: { server: { public_url: 'https://forms.example.com' }, site: { title: 'Ada <&> Co', base_url: 'https://blog.example.com' } },
  });
}

async function signUp(forms: TestFormsService) {
  const response = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: EMAIL }) });
  assert.equal(response.statusCode, 200);
}

const logOf = async (forms: TestFormsService) => (await readJsonLines<Record<string, unknown>>(path.join(forms.dataDir, 'newsletter-subscribers.jsonl'))).records;

async function subscribe(forms: TestFormsService): Promise<string> {
  await signUp(forms);
  const confirm = await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${tokenOf(forms.mailer.sent.at(-1))}` });
  assert.equal(confirm.statusCode, 200);
  const secret = await readFile(path.join(forms.dataDir, 'newsletter-secret'));
  return `/newsletter/unsubscribe?token=${createUnsubscribeToken(secret, '/newsletter', EMAIL)}`;
}

describe('unsubscribe', () => {
  it('GET shows the button and HEAD is refused, both changing nothing; POST unsubscribes; twice is harmless', async () => {
    const forms = await start();
    const url = await subscribe(forms);
    const page = await forms.app.inject({ method: 'GET', url });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<button type="submit">Unsubscribe<\/button>/);
    assert.match(page.body, /Ada &lt;&amp;> Co|Ada &lt;&amp;&gt; Co/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.notEqual((await forms.app.inject({ method: 'HEAD', url })).statusCode, 200);
    assert.equal((await logOf(forms)).length, 1);
    for (let round = 0; round < 2; round += 1) {
      const done = await forms.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
      assert.equal(done.statusCode, 200);
      assert.match(done.body, /You are unsubscribed/);
    }
    const lines = await logOf(forms);
    assert.equal(lines.length, 2);
    assert.deepEqual({ ...lines[1], at: 'x' }, { event: 'unsubscribed', email: EMAIL, form: '/newsletter', at: 'x' });
  });

  it('takes the one-click POST of a mail client from a foreign origin', async () => {
    const forms = await start();
    const url = await subscribe(forms);
    const response = await forms.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.net' },
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(response.statusCode, 200);
    assert.equal((await logOf(forms)).at(-1)?.event, 'unsubscribed');
  });

  it('a bad, tampered or other-form token is 400 and changes nothing', async () => {
    const forms = await start();
    const url = await subscribe(forms);
    const token = url.split('token=')[1]!;
    const secret = await readFile(path.join(forms.dataDir, 'newsletter-secret'));
    const bad = ['', 'nonsense', `${token.slice(0, -2)}AA`, createUnsubscribeToken(secret, '/other', EMAIL), createUnsubscribeToken(Buffer.alloc(32), '/newsletter', EMAIL)];
    for (const candidate of bad) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await forms.app.inject({ method, url: `/newsletter/unsubscribe?token=${candidate}` });
        assert.equal(response.statusCode, 400, `${method} ${candidate}`);
      }
    }
    assert.equal((await logOf(forms)).length, 1);
  });

  it('signing up again after unsubscribing starts a new double opt-in', async () => {
    const forms = await start();
    const url = await subscribe(forms);
    await signUp(forms);
    assert.equal(forms.mailer.sent.filter((mail) => mail.to === EMAIL).length, 1, 'still subscribed: a duplicate, no mail');
    await forms.app.inject({ method: 'POST', url });
    await signUp(forms);
    const mails = forms.mailer.sent.filter((mail) => mail.to === EMAIL);
    assert.equal(mails.length, 2, 'a new confirmation mail');
    assert.equal((await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${tokenOf(mails[1])}` })).statusCode, 200);
    assert.deepEqual((await logOf(forms)).map((line) => line.event), ['subscribed', 'unsubscribed', 'subscribed']);
  });
});

describe('confirm = "button"', () => {
  it('GET shows the button and HEAD is refused, neither redeems; POST redeems once', async () => {
    const forms = await start({ confirm: 'button' });
    await signUp(forms);
    const url = `/newsletter/confirm?token=${tokenOf(forms.mailer.sent.at(-1))}`;
    for (let round = 0; round < 2; round += 1) {
      const page = await forms.app.inject({ method: 'GET', url });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Confirm subscription<\/button>/);
      assert.match(page.body, /<a href="https:\/\/example.com">/);
    }
    assert.notEqual((await forms.app.inject({ method: 'HEAD', url })).statusCode, 200);
    assert.equal((await logOf(forms)).length, 0);
    const done = await forms.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    assert.equal(done.statusCode, 200);
    assert.match(done.body, /Subscription confirmed/);
    assert.equal((await logOf(forms)).length, 1);
    const again = await forms.app.inject({ method: 'GET', url });
    assert.equal(again.statusCode, 410);
    assert.match(again.body, /sign up again/);
    assert.equal((await forms.app.inject({ method: 'POST', url })).statusCode, 410);
  });
});
