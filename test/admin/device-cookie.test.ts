// The device cookie (docs/admin.md "Signing in"): a random token per sign-in whose SHA-256 the account keeps; a
// browser is known for a name only while its token's hash is kept for the name's account in its generation now.
// Forgetting the devices or a new password makes a copied cookie worthless, and a known cookie's failures count
// under a key of its own, so a stolen one gets at most 5 tries in 15 minutes.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type inject from 'light-my-request';
import { DEVICE_COOKIE } from '../../src/admin/devices.js';
import { deviceHashOf } from '../../src/admin/devices.js';
import { browserOf, formPost, PASSWORD, startAccountAdmin, type AccountAdmin, type SignedInBrowser, type TestAdmin } from './admin-app.js';

const NEW_PASSWORD = 'a new and longer passphrase';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(): Promise<AccountAdmin> {
  const admin = await startAccountAdmin();
  cleanups.push(admin.close);
  return admin;
}

const login = (app: TestAdmin, name: string, password: string, remoteAddress: string, cookie?: string) =>
  app.inject({ ...formPost('/admin/login', { name, password }, cookie === undefined ? {} : { cookie }), remoteAddress });

/** The `postbox_admin_device=...` pair an answer sets. */
function deviceCookieOf(response: inject.Response): string {
  const header = response.headers['set-cookie'];
  const cookie = (Array.isArray(header) ? header : [String(header)]).find((each) => each.startsWith(`${DEVICE_COOKIE}=`));
  if (!cookie) throw new Error(`no device cookie in ${String(header)}`);
  return cookie.split(';', 1)[0]!;
}

/** Five wrong passwords for `name` from five addresses of a stranger: the name is held back afterwards. */
async function lockName(app: TestAdmin, name: string): Promise<void> {
  for (let attempt = 1; attempt <= 5; attempt += 1) assert.equal((await login(app, name, 'wrong password', `198.51.100.${attempt}`)).statusCode, 403);
  assert.equal((await login(app, name, PASSWORD, '198.51.100.99')).statusCode, 429, 'the name is held back');
}

/** A browser signed in as `name` from `address`: its session, and its device cookie. */
async function signInBrowser(app: TestAdmin, name: string, address: string, password = PASSWORD): Promise<{ browser: SignedInBrowser; device: string }> {
  const answer = await login(app, name, password, address);
  return { browser: await browserOf(app, answer), device: deviceCookieOf(answer) };
}

function post(app: TestAdmin, browser: SignedInBrowser, url: string, fields: Record<string, string>) {
  return app.inject({ ...formPost(url, { csrf_token: browser.csrf, ...fields }, { cookie: browser.cookie }), remoteAddress: '192.0.2.1' });
}

describe('the device cookie', () => {
  it('is a new random token at every sign-in, of which only the hash is kept with the account', async () => {
    const { app, store } = await setUp();
    const first = deviceCookieOf(await login(app, 'ada', PASSWORD, '192.0.2.1'));
    const second = deviceCookieOf(await login(app, 'ada', PASSWORD, '192.0.2.2'));
    assert.notEqual(first, second);
    const devices = (await store.get('ada'))!.devices ?? [];
    assert.equal(devices.length, 2);
    const tokens = [first, second].map((cookie) => cookie.slice(DEVICE_COOKIE.length + 1));
    assert.deepEqual(new Set(devices.map((device) => device.hash)), new Set(tokens.map(deviceHashOf)));
    assert.ok(!JSON.stringify(devices).includes(tokens[0]!), 'never the token itself');
  });

  it('lets the browser it was given to sign in while the name is held back, and replaces its token', async () => {
    const { app, store } = await setUp();
    const { device } = await signInBrowser(app, 'ada', '192.0.2.1');
    await lockName(app, 'ada');
    const again = await login(app, 'ada', PASSWORD, '192.0.2.1', device);
    assert.equal(again.statusCode, 303, 'a remembered browser is not held back by the name');
    assert.notEqual(deviceCookieOf(again), device);
    assert.equal((await store.get('ada'))!.devices?.length, 1, 'the new token in place of the old one');
  });

  it("is not known any more once the account's devices are forgotten", async () => {
    const { app } = await setUp();
    const { browser, device } = await signInBrowser(app, 'ada', '192.0.2.1');
    const page = await app.inject({ method: 'GET', url: '/admin/account', headers: { cookie: browser.cookie } });
    assert.match(page.body, /1 browser is remembered for your name\./);
    assert.equal((await post(app, browser, '/admin/account/forget-devices', {})).statusCode, 303);
    const after = await app.inject({ method: 'GET', url: '/admin/account', headers: { cookie: browser.cookie } });
    assert.match(after.body, /No browser is remembered for your name\./);

    await lockName(app, 'ada');
    assert.equal((await login(app, 'ada', PASSWORD, '203.0.113.5', device)).statusCode, 429, "browser A's copied cookie makes browser B nothing");
  });

  it('asks for the password again before forgetting, 15 minutes after it was given', async () => {
    const { app, store, clock } = await setUp();
    const { browser } = await signInBrowser(app, 'ada', '192.0.2.1');
    clock.advance(16 * 60_000);
    const asked = await post(app, browser, '/admin/account/forget-devices', {});
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /name="password" type="password"/);
    assert.equal((await store.get('ada'))!.devices?.length, 1, 'nothing forgotten yet');
    assert.equal((await post(app, browser, '/admin/account/forget-devices', { password: PASSWORD })).statusCode, 303);
    assert.equal((await store.get('ada'))!.devices, undefined);
    assert.ok(store.auditEvents().some((event) => event.event === 'devices_forgotten' && event.user === 'ada'));
    const refused = await app.inject(formPost('/admin/account/forget-devices', { csrf_token: 'not the token' }, { cookie: browser.cookie }));
    assert.equal(refused.statusCode, 403, 'the CSRF token is checked');
  });

  it('is not known any more after a new password', async () => {
    const { app } = await setUp();
    const { browser, device } = await signInBrowser(app, 'ada', '192.0.2.1');
    const changed = await post(app, browser, '/admin/account/password', { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    assert.equal(changed.statusCode, 303);
    for (let attempt = 1; attempt <= 5; attempt += 1) assert.equal((await login(app, 'ada', 'wrong password', `198.51.100.${attempt}`)).statusCode, 403);
    assert.equal((await login(app, 'ada', NEW_PASSWORD, '203.0.113.5', device)).statusCode, 429);
  });

  it('is not known any more after "Sign out everywhere"', async () => {
    const { app } = await setUp();
    const { browser, device } = await signInBrowser(app, 'jane', '192.0.2.1');
    assert.equal((await post(app, browser, '/admin/account/sign-out-everywhere', {})).statusCode, 303);
    await lockName(app, 'jane');
    assert.equal((await login(app, 'jane', PASSWORD, '203.0.113.5', device)).statusCode, 429);
  });

  it('is not known any more after a new role', async () => {
    const admin = await startAccountAdmin({ usersPages: true });
    cleanups.push(admin.close);
    const { app } = admin;
    const { device } = await signInBrowser(app, 'ada', '192.0.2.1');
    const { browser: owner } = await signInBrowser(app, 'jane', '192.0.2.2');
    assert.equal((await post(app, owner, '/admin/users/role', { name: 'ada', role: 'editor' })).statusCode, 303);
    await lockName(app, 'ada');
    assert.equal((await login(app, 'ada', PASSWORD, '203.0.113.5', device)).statusCode, 429);
  });

  it('gets at most 5 wrong passwords checked in a burst, from any number of addresses', async () => {
    const { app } = await setUp();
    const { device } = await signInBrowser(app, 'ada', '192.0.2.1');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => login(app, 'ada', `wrong password ${index}`, `203.0.113.${index + 1}`, device)));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 403).length, 5, `${statuses.join(' ')}`);
    assert.equal(statuses.filter((status) => status === 429).length, 15);
    assert.equal((await login(app, 'ada', PASSWORD, '192.0.2.1', device)).statusCode, 429, 'the device waits like a name');
    assert.equal((await login(app, 'ada', PASSWORD, '192.0.2.50')).statusCode, 303, 'the name itself is not held back by the device');
  });

  it('keeps at most 10 devices per user, the most recently used', async () => {
    const { app, store } = await setUp();
    for (let index = 1; index <= 12; index += 1) {
      await login(app, 'ed', PASSWORD, `192.0.2.${index}`);
      app.clock.advance(1000);
    }
    const devices = (await store.get('ed'))!.devices ?? [];
    assert.equal(devices.length, 10);
  });
});
