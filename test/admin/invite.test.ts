// /admin/invite through the admin's own guard without a session (light-my-request) over an in-memory account store:
// the invited name and role, the password rules, one user for 20 submissions at the same moment, one 410 for
// unknown, malformed, used, withdrawn and expired tokens, the audit event, and a token that reaches no log.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { createUsersPages } from '../../src/admin/users-pages/users-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../src/kit/password-hash.js';
import { createTestClock, TEST_EPOCH_MS, type TestClock } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createMemoryAccountStore, type MemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const DAY = 24 * 3_600_000;
const CHOSEN = 'a long new password';

interface Setup {
  app: TestAdmin;
  store: MemoryAccountStore;
  clock: TestClock;
  pageLogs: LogCapture;
  hashes: { count: number };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(): Promise<Setup> {
  const hash = await testHash();
  const { dir, remove } = await createTempDir('invite');
  const clock = createTestClock();
  const store = createMemoryAccountStore([{ name: 'olga', role: 'owner', passwordHash: hash, generation: 0, passkeys: [], createdAt: TEST_EPOCH_MS }]);
  const accounts = createAccounts([{ name: 'jane', password_hash: hash }], store);
  const pageLogs = captureLogs();
  const hashes = { count: 0 };
  let app: TestAdmin | undefined;
  const pages = createUsersPages({
    accounts,
    clock,
    logger: pageLogs.logger,
    randomBytes,
    publicUrl: 'https://admin.example.com',
    verifyPassword: async (_user, password) => password === PASSWORD,
    confirmSession: (request) => app!.confirmSession(request),
    passwordAttempts: createSignInThrottle(),
    async hashPassword(password) {
      hashes.count += 1;
      return hashPassword(password, randomBytes(16), { N: 16384, r: 8, p: 1 });
    },
    networkOf: (request) => request.clientAddress,
  });
  app = await startTestAdmin({ dataDir: dir, clock, accounts, pages: [...createPlaceholderPages(), ...pages] });
  cleanups.push(async () => {
    await app!.close();
    await remove();
  });
  return { app, store, clock, pageLogs, hashes };
}

/** Invites `name` as `role` from olga's session and returns the token of the link shown. */
async function invite(app: TestAdmin, name: string, role = 'editor'): Promise<string> {
  const owner = await startSession(app, 'olga');
  const answer = await app.inject(formPost('/admin/users/invite', { csrf_token: owner.csrf, name, role, email: 'new@example.org' }, { cookie: owner.cookie }));
  assert.equal(answer.statusCode, 200);
  const token = /\/admin\/invite\?token=([A-Za-z0-9_-]{43})/.exec(answer.body)?.[1];
  assert.ok(token);
  return token;
}

function accept(token: string, password = CHOSEN, again = password, remoteAddress = '203.0.113.9') {
  return { ...formPost('/admin/invite', { token, password, password_again: again }), remoteAddress };
}

describe('/admin/invite', () => {
  it('shows the invited name and role and asks for a password twice, without a session', async () => {
    const { app } = await setUp();
    const token = await invite(app, 'Nina <b>Ng</b>', 'author');
    const page = await app.inject({ method: 'GET', url: `/admin/invite?token=${token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Welcome, Nina &lt;b>Ng&lt;\/b>/);
    assert.match(page.body, /with the role <strong>author<\/strong>/);
    assert.match(page.body, /<form method="post" action="\/admin\/invite"/);
    assert.match(page.body, new RegExp(`<input type="hidden" name="token" value="${token}"`));
    assert.match(page.body, /name="password" type="password" autocomplete="new-password"/);
    assert.match(page.body, /name="password_again" type="password"/);
    assert.equal(page.headers['cache-control'], 'no-store');
  });

  it('creates the user with the chosen password once, then sends the browser to sign in; the link is used up', async () => {
    const { app, store, pageLogs } = await setUp();
    const token = await invite(app, 'nina', 'author');
    const answer = await app.inject(accept(token));
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/login');
    const created = await store.get('nina');
    assert.equal(created?.role, 'author');
    assert.equal(created?.email, 'new@example.org');
    const parsed = parsePasswordHash(created!.passwordHash!);
    assert.ok(!('problem' in parsed));
    assert.equal(await verifyPassword(parsed, CHOSEN), true);
    assert.deepEqual(await store.listInvitations(TEST_EPOCH_MS), []);
    assert.deepEqual(store.auditEvents().at(-1), { at: TEST_EPOCH_MS, user: 'nina', event: 'invitation_accepted', subject: 'nina', network: '203.0.113.9' });

    // The new user's session works, in the role invited.
    const session = await startSession(app, 'nina');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: session.cookie } })).statusCode, 403);

    for (const again of [await app.inject(accept(token)), await app.inject({ method: 'GET', url: `/admin/invite?token=${token}` })]) {
      assert.equal(again.statusCode, 410);
      assert.match(again.body, /This invitation link is unknown, used or expired\./);
    }
    assert.ok(!pageLogs.text().includes(token) && !app.logs.text().includes(token), 'the token is never logged');
    assert.ok(!app.logs.text().includes(CHOSEN) && !pageLogs.text().includes(CHOSEN));
  });

  it('of 20 submissions at the same moment exactly one creates the user', async () => {
    const { app, store } = await setUp();
    const token = await invite(app, 'nina');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => app.inject(accept(token, `${CHOSEN} ${index}`))));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    assert.deepEqual(statuses, [303, ...Array<number>(19).fill(410)]);
    assert.deepEqual(
      // The users of the store: jane of the configuration has a record of her password's tag only.
      (await store.list()).filter((account) => account.role).map((account) => account.name),
      ['nina', 'olga'],
    );
    const winner = answers.findIndex((answer) => answer.statusCode === 303);
    const parsed = parsePasswordHash((await store.get('nina'))!.passwordHash!);
    assert.ok(!('problem' in parsed));
    assert.equal(await verifyPassword(parsed, `${CHOSEN} ${winner}`), true, 'the password of the submission that won');
    assert.equal(store.auditEvents().filter((event) => event.event === 'invitation_accepted').length, 1);
  });

  it('refuses a short or mistyped password with 422 and keeps the invitation open', async () => {
    const { app, store, hashes } = await setUp();
    const token = await invite(app, 'nina');
    const short = await app.inject(accept(token, 'elevenchars'));
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /The password must be at least 12 characters long\./);
    const mistyped = await app.inject(accept(token, CHOSEN, `${CHOSEN}!`));
    assert.equal(mistyped.statusCode, 422);
    assert.match(mistyped.body, /The two passwords are not the same\./);
    assert.equal(hashes.count, 0, 'nothing was hashed');
    assert.equal(await store.get('nina'), undefined);
    assert.equal((await store.listInvitations(TEST_EPOCH_MS)).length, 1);
    assert.equal((await app.inject(accept(token, 'twelve chars'))).statusCode, 303, '12 characters are enough');
  });

  it('answers one 410 page for unknown, malformed, withdrawn and expired tokens, and changes nothing', async () => {
    const { app, store, clock, hashes } = await setUp();
    const expiring = await invite(app, 'nina');
    clock.advance(DAY);
    const withdrawn = await invite(app, 'walt');
    const owner = await startSession(app, 'olga');
    const [walt] = (await store.listInvitations(clock())).filter((invitation) => invitation.name === 'walt');
    assert.equal((await app.inject(formPost('/admin/users/withdraw', { csrf_token: owner.csrf, invitation: walt!.tokenHash }, { cookie: owner.cookie }))).statusCode, 303);
    clock.advance(6 * DAY);
    // nina's invitation was made 7 days ago to the millisecond: no longer valid.
    const bodies = new Set<string>();
    for (const token of [randomBytes(32).toString('base64url'), 'short', '', withdrawn, expiring]) {
      for (const answer of [await app.inject({ method: 'GET', url: `/admin/invite?token=${encodeURIComponent(token)}` }), await app.inject(accept(token))]) {
        assert.equal(answer.statusCode, 410, token);
        bodies.add(answer.body);
      }
    }
    assert.equal(bodies.size, 1, 'one page for all');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/invite' })).statusCode, 410);
    assert.equal(hashes.count, 0);
    assert.deepEqual(
      // The users of the store: jane of the configuration has a record of her password's tag only.
      (await store.list()).filter((account) => account.role).map((account) => account.name),
      ['olga'],
    );
  });

  it('refuses a POST from another site', async () => {
    const { app, store } = await setUp();
    const token = await invite(app, 'nina');
    const answer = await app.inject({ ...accept(token), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
    assert.equal(answer.statusCode, 403);
    assert.equal(await store.get('nina'), undefined);
  });
});
