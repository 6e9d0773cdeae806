// Sign-in over HTTP (docs/admin.md "Signing in" and "Sessions"): the form, one message for a wrong name or password,
// throttling with Retry-After, the session cookie's flags, where a person lands, and sign-out.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { WRONG_CREDENTIALS } from '../../src/admin/sign-in.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, sessionIdFrom, signIn, startTestAdmin, storedKeyOf, type TestAdmin } from './admin-app.js';

const MINUTE_MS = 60_000;

describe('admin sign-in', () => {
  let app: TestAdmin;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    const temp = await createTempDir('admin');
    remove = temp.remove;
    app = await startTestAdmin({ dataDir: temp.dir, users: ['jane', 'ops'] });
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  it('shows a form with the fields Name and Password and a Sign in button', async () => {
    const page = await app.inject({ method: 'GET', url: '/admin/login?next=%2Fadmin%2Fposts' });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /<label for="name">Name<\/label><input id="name" name="name"/);
    assert.match(page.body, /<label for="password">Password<\/label><input id="password" name="password" type="password"/);
    assert.match(page.body, /<button type="submit">Sign in<\/button>/);
    assert.match(page.body, /<input type="hidden" name="next" value="\/admin\/posts"\/>/);
    assert.match(page.body, /<html lang="en">/);
  });

  it('signs in with a new session cookie (HttpOnly, SameSite=Strict, Path=/admin) and a 303 to where the person was going', async () => {
    const response = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD, next: '/admin/posts?page=2' }));
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/admin/posts?page=2');
    const cookie = String(response.headers['set-cookie']);
    assert.match(cookie, /^postbox_admin=[A-Za-z0-9_-]{43}; /);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\/admin;/);
    assert.doesNotMatch(cookie, /Secure/);
    const id = sessionIdFrom(response);
    assert.deepEqual(await app.storedKeys(), [storedKeyOf(id)], 'only the SHA-256 of the id is stored');
    const line = app.logs.lines().find((entry) => entry.event === 'admin_sign_in');
    assert.equal(line?.user, 'jane');
  });

  it('marks the cookie Secure when secure_cookies is on', async () => {
    const temp = await createTempDir('admin-secure');
    const secure = await startTestAdmin({ dataDir: temp.dir, secureCookies: true });
    try {
      const response = await secure.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD }));
      const cookies = [response.headers['set-cookie']].flat();
      assert.ok(cookies.length > 0);
      for (const cookie of cookies) assert.match(String(cookie), /; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await secure.close();
      await temp.remove();
    }
  });

  it('never sends a person to another site after sign-in', async () => {
    for (const next of ['https://evil.example/admin', '//evil.example/admin', '/\\evil.example', '/blog', '/admin/../blog', '/admin/%2e%2e/x', '/administrator', 'javascript:alert(1)']) {
      const response = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD, next }));
      assert.equal(response.headers.location, '/admin', next);
    }
  });

  it('answers a wrong password and an unknown name with the same page, logging only configured names', async () => {
    const wrongPassword = await app.inject(formPost('/admin/login', { name: 'jane', password: 'not the password' }));
    const unknownName = await app.inject(formPost('/admin/login', { name: 'jane2', password: PASSWORD }));
    for (const response of [wrongPassword, unknownName]) {
      assert.equal(response.statusCode, 403);
      assert.equal(response.headers['set-cookie'], undefined);
      assert.ok(response.body.includes(WRONG_CREDENTIALS));
    }
    assert.equal(wrongPassword.body.replace('value="jane"', ''), unknownName.body.replace('value="jane2"', ''));
    const failures = app.logs.lines().filter((line) => line.event === 'admin_sign_in_failed');
    assert.deepEqual(failures.map((line) => line.user), ['jane', undefined]);
    assert.ok(!app.logs.text().includes('jane2'), 'an unknown name is not logged');
    assert.ok(!app.logs.text().includes('not the password'));
  });

  it('after 5 failures in 15 minutes from one address answers 429 with Retry-After, even to the right password', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await app.inject(formPost('/admin/login', { name: `guess${attempt}`, password: 'wrong password!' }));
      assert.equal(response.statusCode, 403);
      app.clock.advance(MINUTE_MS);
    }
    const refused = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD }));
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], String(10 * 60));
    assert.match(refused.body, /Too many failed sign-ins\. Try again in 10 minutes, at 12:15 UTC\./);
    assert.equal(refused.headers['set-cookie'], undefined);
    assert.equal(refused.headers['cache-control'], 'no-store');
    // Another address is not held back for names it did not try.
    const elsewhere = await app.inject({ ...formPost('/admin/login', { name: 'jane', password: PASSWORD }), remoteAddress: '192.0.2.7' });
    assert.equal(elsewhere.statusCode, 303);
    app.clock.advance(10 * MINUTE_MS);
    const later = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD }));
    assert.equal(later.statusCode, 303);
  });

  it('after 5 failures for one name from many addresses answers 429 for that name only', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await app.inject({ ...formPost('/admin/login', { name: 'ops', password: 'wrong password!' }), remoteAddress: `192.0.2.${attempt + 1}` });
    }
    const refused = await app.inject({ ...formPost('/admin/login', { name: 'ops', password: PASSWORD }), remoteAddress: '198.51.100.1' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], String(15 * 60));
    const other = await app.inject({ ...formPost('/admin/login', { name: 'jane', password: PASSWORD }), remoteAddress: '198.51.100.1' });
    assert.equal(other.statusCode, 303);
  });

  it('cuts a name longer than any user may have: long names count as one for the per-name limit, however they end', async () => {
    const long = 'n'.repeat(101);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await app.inject({ ...formPost('/admin/login', { name: `${long}${'z'.repeat(200)}${attempt}`, password: 'wrong password!' }), remoteAddress: `192.0.2.${attempt + 1}` });
      assert.equal(answer.statusCode, 403);
    }
    const refused = await app.inject({ ...formPost('/admin/login', { name: `${long}another`, password: 'wrong password!' }), remoteAddress: '198.51.100.7' });
    assert.equal(refused.statusCode, 429);
  });

  it('refuses a sign-in posted from another site, signing nobody in', async () => {
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      const response = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD }, headers));
      assert.equal(response.statusCode, 403);
      assert.equal(response.headers['set-cookie'], undefined);
    }
    assert.deepEqual(await app.storedKeys(), []);
  });

  it('sign-out (a POST with the token) ends the session on the server', async () => {
    const { id, csrf, cookie } = await signIn(app);
    const out = await app.inject(formPost('/admin/logout', { csrf_token: csrf }, { cookie }));
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/admin/login');
    assert.match(String(out.headers['set-cookie']), /^postbox_admin=; Path=\/admin; Max-Age=0; HttpOnly; SameSite=Strict/);
    assert.ok(!(await app.storedKeys()).includes(storedKeyOf(id)));
    // The old cookie, kept by whoever copied it, opens nothing.
    const again = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
    assert.equal(again.statusCode, 303);
    assert.equal(app.logs.lines().find((line) => line.event === 'admin_sign_out')?.user, 'jane');
  });

  it('gives a new session id at every sign-in and ends the one the browser had', async () => {
    const first = await signIn(app);
    const response = await app.inject({ ...formPost('/admin/login', { name: 'jane', password: PASSWORD }), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: first.cookie } });
    const second = sessionIdFrom(response);
    assert.notEqual(second, first.id);
    assert.deepEqual(await app.storedKeys(), [storedKeyOf(second)]);
  });
});
