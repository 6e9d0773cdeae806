// The session cookie as an attacker would try it (docs/admin.md "Sessions"): with secure cookies it is
// `__Host-postbox_admin` on `Path=/`, Secure; a request that carries the session cookie twice (one planted by a
// sibling subdomain beside the real one) is signed in as nobody; a session ends `session_max_hours` after sign-in
// however busy it is.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { HOUR_MS } from '../support/clock.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, startTestAdmin, type TestAdmin } from './admin-app.js';

describe('the session cookie', () => {
  const open: Array<{ app: TestAdmin; remove: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const { app, remove } of open.splice(0)) {
      await app.close();
      await remove();
    }
  });
  const start = async (options: { secureCookies?: boolean; sessionMaxHours?: number; sessionHours?: number } = {}) => {
    const temp = await createTempDir('admin-cookies');
    const app = await startTestAdmin({ dataDir: temp.dir, ...options });
    open.push({ app, remove: temp.remove });
    return app;
  };
  const signInCookie = async (app: TestAdmin) => {
    const response = await app.inject(formPost('/admin/login', { name: 'jane', password: PASSWORD }));
    assert.equal(response.statusCode, 303);
    const header = response.headers['set-cookie'];
    const cookies = Array.isArray(header) ? header : [String(header)];
    return cookies.find((cookie) => /^(__Host-)?postbox_admin=/.test(cookie))!;
  };

  it('is __Host-postbox_admin on Path=/, Secure, with secure cookies; and postbox_admin on /admin without', async () => {
    const secure = await signInCookie(await start({ secureCookies: true }));
    assert.match(secure, /^__Host-postbox_admin=[A-Za-z0-9_-]{43}; Path=\/; /);
    assert.match(secure, /; Secure/);
    const plain = await signInCookie(await start({ secureCookies: false }));
    assert.match(plain, /^postbox_admin=[A-Za-z0-9_-]{43}; Path=\/admin; /);
    assert.doesNotMatch(plain, /Secure/);
  });

  it('signs nobody in when the request carries two session cookies, the real one among them', async () => {
    const app = await start();
    const real = (await signInCookie(app)).split(';', 1)[0]!;
    assert.equal((await app.inject({ method: 'GET', url: '/admin', headers: { cookie: real } })).statusCode, 200);
    const planted = `postbox_admin=${'A'.repeat(43)}`;
    for (const cookie of [`${real}; ${planted}`, `${planted}; ${real}`, `${real}; ${real}`]) {
      const response = await app.inject({ method: 'GET', url: '/admin', headers: { cookie } });
      assert.equal(response.statusCode, 303, cookie);
      assert.match(String(response.headers.location), /^\/admin\/login/);
    }
  });

  it('ends a session session_max_hours after sign-in, however busy it is', async () => {
    const app = await start({ sessionHours: 2, sessionMaxHours: 5 });
    const cookie = (await signInCookie(app)).split(';', 1)[0]!;
    for (let hour = 1; hour <= 4; hour += 1) {
      app.clock.advance(HOUR_MS);
      assert.equal((await app.inject({ method: 'GET', url: '/admin', headers: { cookie } })).statusCode, 200, `hour ${hour}`);
    }
    app.clock.advance(HOUR_MS);
    assert.equal((await app.inject({ method: 'GET', url: '/admin', headers: { cookie } })).statusCode, 303, 'five hours after sign-in');
  });
});
