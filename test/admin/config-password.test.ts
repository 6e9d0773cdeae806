// A configuration user's password changed the documented way (a new `password_hash` in `[admin] users`, then a
// restart) ends the sessions of the old one (docs/admin.md "Sessions"): the store keeps a tag of the hash, and a new
// one moves the user's generation on at start. Their TOTP keeps working, the second step comparing the stored
// generation with the pending sign-in's.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { hashPassword } from '../../src/kit/password-hash.js';
import { createTestClock } from '../support/clock.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, sessionIdFrom, startTestAdmin, testHash, totpCodeOf, type TestAdmin } from './admin-app.js';

const NEW_PASSWORD = 'a new and longer passphrase';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Signs jane in with `password` and the TOTP code of now: the session cookie. */
async function signInWithCode(app: TestAdmin, password: string): Promise<string> {
  const first = await app.inject({ ...formPost('/admin/login', { name: 'jane', password }), remoteAddress: '192.0.2.1' });
  assert.equal(first.statusCode, 200, 'the code is asked');
  const pending = /name="pending" value="([^"]+)"/.exec(first.body)?.[1] ?? '';
  const second = await app.inject({ ...formPost('/admin/login/second-factor', { pending, code: totpCodeOf(SECRET, app.clock()) }), remoteAddress: '192.0.2.1' });
  assert.equal(second.statusCode, 303, second.body);
  return `postbox_admin=${sessionIdFrom(second)}`;
}

const opens = async (app: TestAdmin, cookie: string) => (await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode === 200;

describe("a configuration user's new password hash", () => {
  it('ends the sessions of the old one at the restart, while TOTP keeps working', async () => {
    const { dir, remove } = await createTempDir('config-password');
    cleanups.push(remove);
    const clock = createTestClock();
    const store = createMemoryAccountStore([{ name: 'jane', generation: 0, passkeys: [], createdAt: 0, totp: { secret: SECRET, recoveryCodeHashes: [], enabledAt: 0 } }]);
    const oldHash = await testHash();
    const newHash = await hashPassword(NEW_PASSWORD, randomBytes(16), { N: 16384, r: 8, p: 1 });
    const start = async (passwordHash: string) => {
      const app = await startTestAdmin({ dataDir: dir, clock, passwordHash, accounts: createAccounts([{ name: 'jane', password_hash: passwordHash }], store) });
      cleanups.push(() => app.close());
      return app;
    };

    const before = await start(oldHash);
    const old = await signInWithCode(before, PASSWORD);
    assert.ok(await opens(before, old));
    await before.close();
    const again = await start(oldHash);
    assert.ok(await opens(again, old), 'the same hash after a restart: the session lives on');
    assert.equal((await store.get('jane'))?.generation, 0);
    await again.close();

    const after = await start(newHash);
    assert.equal(await opens(after, old), false, 'a session of the old password has ended');
    assert.equal((await store.get('jane'))?.generation, 1);
    assert.ok(store.auditEvents().some((event) => event.event === 'password_changed' && event.subject === 'jane' && event.network === 'config'));
    await after.restart();
    assert.equal((await store.get('jane'))?.generation, 1, 'moved once, not at every start');

    clock.advance(30_000);
    const fresh = await signInWithCode(after, NEW_PASSWORD);
    assert.ok(await opens(after, fresh), 'the new password and a TOTP code sign in');
    const refused = await after.inject({ ...formPost('/admin/login', { name: 'jane', password: PASSWORD }), remoteAddress: '192.0.2.2' });
    assert.equal(refused.statusCode, 403, 'the old password no longer');
  });
});
