// The password asked again before a sensitive change (src/admin/reauth.tsx) counts its wrong passwords per user in
// the sign-in throttle: one count for every page that asks (here /admin/account and /admin/users), and a burst sent
// all at once gets no more than 5 checked.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { formPost, PASSWORD, signInToAccount, startAccountAdmin, type AccountAdmin, type SignedInBrowser, type TestAdmin } from './admin-app.js';

const MINUTE = 60_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The account and users pages, jane (owner) signed in more than 15 minutes ago: every change asks for the password. */
async function setUp(): Promise<AccountAdmin & { jane: SignedInBrowser }> {
  const admin = await startAccountAdmin({ usersPages: true });
  cleanups.push(admin.close);
  const jane = await signInToAccount(admin.app, 'jane');
  admin.clock.advance(16 * MINUTE);
  return { ...admin, jane };
}

function post(app: TestAdmin, browser: SignedInBrowser, url: string, fields: Record<string, string>) {
  return app.inject({ ...formPost(url, { csrf_token: browser.csrf, ...fields }, { cookie: browser.cookie }), remoteAddress: '192.0.2.1' });
}

describe('the password asked again', () => {
  it('refuses a sixth wrong password within 15 minutes, counted over every page that asks', async () => {
    const { app, store, jane, clock } = await setUp();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      assert.equal((await post(app, jane, '/admin/account/sign-out-everywhere', { password: `wrong ${attempt}` })).statusCode, 403);
    }
    for (let attempt = 0; attempt < 2; attempt += 1) {
      assert.equal((await post(app, jane, '/admin/users/role', { name: 'ada', role: 'editor', password: `wrong ${attempt}` })).statusCode, 403);
    }
    const refused = await post(app, jane, '/admin/users/role', { name: 'ada', role: 'editor', password: PASSWORD });
    assert.equal(refused.statusCode, 429, 'five wrong ones in all, over two pages');
    assert.match(refused.body, /Too many wrong passwords/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await post(app, jane, '/admin/account/sign-out-everywhere', { password: PASSWORD })).statusCode, 429);
    assert.equal((await store.get('ada'))?.role, 'author', 'nothing changed');

    clock.advance(15 * MINUTE);
    assert.equal((await post(app, jane, '/admin/users/role', { name: 'ada', role: 'editor', password: PASSWORD })).statusCode, 303, 'after 15 minutes');
    assert.equal((await store.get('ada'))?.role, 'editor');
  });

  it('checks at most 5 of 20 wrong passwords sent at once', async () => {
    const { app, jane } = await setUp();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => post(app, jane, '/admin/account/sign-out-everywhere', { password: `wrong password ${index}` })));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 403).length, 5, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 15);
    assert.ok(answers.filter((answer) => answer.statusCode === 429).every((answer) => /Too many wrong passwords/.test(answer.body)));
  });
});
