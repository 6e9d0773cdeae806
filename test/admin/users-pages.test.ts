// /admin/users through the admin's own guard (light-my-request) over an in-memory account store: the list with
// config users marked and second factors, invitations (the link shown once, its SHA-256 stored, mailed through a
// recorded queue or passed on by hand), refused names, role changes and removals that end sessions at once, the
// last owner kept, editors refused, and the password asked again after 15 minutes.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import type { StoredAccount } from '../../src/admin/accounts/account.js';
import { createAccounts, type Accounts } from '../../src/admin/accounts/accounts.js';
import { createUsersPages } from '../../src/admin/users-pages/users-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { parsePasswordHash, verifyPassword } from '../../src/kit/password-hash.js';
import type { MailMessage } from '../../src/ports.js';
import { createTestClock, TEST_EPOCH_MS, type TestClock } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createMemoryAccountStore, type MemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;

interface Setup {
  app: TestAdmin;
  store: MemoryAccountStore;
  accounts: Accounts;
  clock: TestClock;
  pageLogs: LogCapture;
  mails: MailMessage[];
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function stored(name: string, role: StoredAccount['role'], hash: string, extra: Partial<StoredAccount> = {}): StoredAccount {
  return { name, role, passwordHash: hash, generation: 3, passkeys: [], createdAt: TEST_EPOCH_MS - DAY, ...extra };
}

/** /admin with the users pages over `users` in memory; `configUsers` are the config's (default: jane). */
async function setUp(options: { users?: (hash: string) => StoredAccount[]; configUsers?: string[]; mail?: boolean } = {}): Promise<Setup> {
  const hash = await testHash();
  const { dir, remove } = await createTempDir('users-pages');
  const clock = createTestClock();
  const store = createMemoryAccountStore(options.users?.(hash) ?? []);
  const accounts = createAccounts((options.configUsers ?? ['jane']).map((name) => ({ name, password_hash: hash })), store);
  const pageLogs = captureLogs();
  const mails: MailMessage[] = [];
  let app: TestAdmin | undefined;
  const pages = createUsersPages({
    accounts,
    clock,
    logger: pageLogs.logger,
    randomBytes,
    publicUrl: 'https://admin.example.com',
    invitationMail: options.mail === false ? undefined : { from: 'Postbox <postbox@example.com>', sendInvitation: async (mail) => void mails.push(mail) },
    async verifyPassword(user, password) {
      const account = await accounts.find(user);
      const parsed = account && parsePasswordHash(account.passwordHash);
      return parsed !== undefined && !('problem' in parsed) && verifyPassword(parsed, password);
    },
    confirmSession: (request) => app!.confirmSession(request),
    passwordAttempts: createSignInThrottle(),
    hashPassword: async () => hash,
    networkOf: (request) => request.clientAddress,
  });
  app = await startTestAdmin({ dataDir: dir, clock, accounts, pages: [...createPlaceholderPages(), ...pages] });
  cleanups.push(async () => {
    await app!.close();
    await remove();
  });
  return { app, store, accounts, clock, pageLogs, mails };
}

const withOwnersAndEditor = (hash: string) => [
  stored('olga', 'owner', hash, { email: 'olga@example.org', totp: { secret: 'JBSWY3DPEHPK3PXP', recoveryCodeHashes: [], enabledAt: TEST_EPOCH_MS - DAY } }),
  stored('ed', 'editor', hash, {
    passkeys: [
      { id: 'a', publicKey: 'k', counter: 0, label: 'Laptop', createdAt: TEST_EPOCH_MS - DAY },
      { id: 'b', publicKey: 'k', counter: 0, label: 'Phone', createdAt: TEST_EPOCH_MS - DAY },
    ],
  }),
  stored('ada', 'author', hash),
];

async function post(app: TestAdmin, session: { csrf: string; cookie: string }, url: string, fields: Record<string, string>) {
  return app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));
}

/** The text of a page without its tags, white space folded. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
}

describe('/admin/users', () => {
  it('lists every user with role, email, config marking and second factors, and the open invitations', async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor });
    await store.addInvitation({ tokenHash: 'f'.repeat(64), name: 'newbie', role: 'author', email: 'new@example.org', createdBy: 'olga', createdAt: TEST_EPOCH_MS, expiresAt: TEST_EPOCH_MS + 7 * DAY });
    await store.addInvitation({ tokenHash: 'e'.repeat(64), name: 'late', role: 'author', createdBy: 'olga', createdAt: TEST_EPOCH_MS - 8 * DAY, expiresAt: TEST_EPOCH_MS - DAY });
    const session = await startSession(app, 'olga');
    const page = await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: session.cookie } });
    assert.equal(page.statusCode, 200);
    const text = textOf(page.body);
    assert.match(text, /jane Owner, set in the configuration/);
    assert.match(text, /olga \(you\) Owner olga@example\.org TOTP: yes; passkeys: 0/);
    assert.match(text, /ed Editor TOTP: no; passkeys: 2/);
    assert.match(text, /ada Author/);
    assert.match(text, /newbie Author new@example\.org olga/);
    assert.doesNotMatch(text, /late/, 'an expired invitation is not open');
    assert.match(page.body, /<a href="\/admin\/users" aria-current="page">Users<\/a>/);
    assert.match(page.body, /<a href="\/admin\/audit">Audit<\/a>/);
    // jane has no buttons; nobody can remove themself.
    assert.doesNotMatch(page.body, /name="name" value="jane"/);
    const rowOf = (name: string) => /<tr>.*?<\/tr>/g[Symbol.match](page.body)?.find((row) => row.startsWith(`<tr><td>${name}`)) ?? '';
    assert.doesNotMatch(rowOf('olga'), /\/admin\/users\/remove/);
    assert.match(rowOf('olga'), /\/admin\/users\/role/);
    assert.match(rowOf('ed'), /<form method="post" action="\/admin\/users\/remove"/);
  });

  it('invites: the link is shown once in the answer, only its SHA-256 is stored, mailed through the queue, audited, never logged', async () => {
    const { app, store, pageLogs, mails } = await setUp({ users: withOwnersAndEditor });
    const session = await startSession(app, 'olga');
    const answer = await app.inject({ ...formPost('/admin/users/invite', { csrf_token: session.csrf, name: 'Nina Ng', role: 'editor', email: 'nina@example.org' }, { cookie: session.cookie }), remoteAddress: '198.51.100.7' });
    assert.equal(answer.statusCode, 200);
    const link = /value="(https:\/\/admin\.example\.com\/admin\/invite\?token=([A-Za-z0-9_-]{43}))"/.exec(answer.body);
    assert.ok(link, 'the link is on the page');
    const token = link[2]!;
    assert.match(textOf(answer.body), /on its way to nina@example\.org/);

    const [invitation] = await store.listInvitations(TEST_EPOCH_MS);
    assert.deepEqual(invitation, {
      tokenHash: createHash('sha256').update(token).digest('hex'),
      name: 'Nina Ng',
      role: 'editor',
      email: 'nina@example.org',
      createdBy: 'olga',
      createdAt: TEST_EPOCH_MS,
      expiresAt: TEST_EPOCH_MS + 7 * DAY,
    });
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.to, 'nina@example.org');
    assert.equal(mails[0]!.autoSubmitted, 'auto-generated');
    assert.ok(mails[0]!.text.includes(link[1]!));
    assert.deepEqual(store.auditEvents(), [{ at: TEST_EPOCH_MS, user: 'olga', event: 'user_invited', subject: 'Nina Ng', network: '198.51.100.7' }]);

    const list = await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: session.cookie } });
    assert.match(textOf(list.body), /Nina Ng Editor nina@example\.org olga/);
    assert.ok(!list.body.includes(token), 'the list never shows the link again');
    assert.ok(!pageLogs.text().includes(token) && !app.logs.text().includes(token), 'the token is not logged');
    assert.ok(!pageLogs.text().includes('nina@example.org'), 'nor the address');
  });

  it('without a mail queue says the link must be passed on by hand', async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor, mail: false });
    const session = await startSession(app, 'olga');
    const answer = await post(app, session, '/admin/users/invite', { name: 'nina', role: 'author', email: 'nina@example.org' });
    assert.equal(answer.statusCode, 200);
    assert.match(textOf(answer.body), /No mail queue is configured, so the link was not mailed: pass it on by hand/);
    assert.equal((await store.listInvitations(TEST_EPOCH_MS)).length, 1);
  });

  it('refuses a taken, config, empty, too long, white-space-edged, mixed-script or look-alike name with 422 and the reason', async () => {
    const { app, store, mails } = await setUp({ users: withOwnersAndEditor });
    const session = await startSession(app, 'olga');
    const cases: Array<[string, RegExp]> = [
      ['ed', /That name is taken by a user\./],
      ['jane', /That name is a user of the configuration\./],
      ['', /The name is empty\./],
      ['   ', /The name is empty\./],
      ['x'.repeat(101), /The name is longer than 100 characters\./],
      [' bob', /The name begins or ends with white space\./],
      ['bob\t', /The name begins or ends with white space\./],
      ['ED', /That name differs from a user’s only by case or by look-alike letters\./],
      ['\uff45\uff44', /That name differs from a user’s only by case or by look-alike letters\./],
      ['Jane', /That name differs from a user’s only by case or by look-alike letters\./],
      ['bob\u202e', /The name must not hold invisible formatting characters/],
      // "ed" with a Cyrillic е, and "olga" with a Greek ο: letters of two scripts.
      ['\u0435d', /The name mixes letters of Cyrillic and Latin script/],
      ['\u03bflga', /The name mixes letters of Greek and Latin script/],
    ];
    for (const [name, reason] of cases) {
      const answer = await post(app, session, '/admin/users/invite', { name, role: 'author' });
      assert.equal(answer.statusCode, 422, JSON.stringify(name));
      assert.match(answer.body, reason, JSON.stringify(name));
    }
    assert.equal((await post(app, session, '/admin/users/invite', { name: 'x'.repeat(100), role: 'author' })).statusCode, 200, '100 characters are fine');
    const again = await post(app, session, '/admin/users/invite', { name: 'x'.repeat(100), role: 'author' });
    assert.equal(again.statusCode, 422);
    assert.match(again.body, /That name has an open invitation already\./);
    const folded = await post(app, session, '/admin/users/invite', { name: 'X'.repeat(100), role: 'author' });
    assert.equal(folded.statusCode, 422);
    assert.match(folded.body, /That name differs from an open invitation’s only by case/);
    // In Cyrillic letters only, but each one a look-alike of x.
    const cyrillic = await post(app, session, '/admin/users/invite', { name: '\u0445'.repeat(100), role: 'author' });
    assert.equal(cyrillic.statusCode, 422);
    assert.match(cyrillic.body, /That name differs from an open invitation’s only by case or by look-alike letters/);
    assert.equal((await post(app, session, '/admin/users/invite', { name: 'bob', role: 'boss' })).statusCode, 422, 'no such role');
    assert.equal((await store.listInvitations(TEST_EPOCH_MS)).length, 1);
    assert.equal(mails.length, 0);
  });

  it('an editor gets 403 on the page and on every change, and nothing changes', async () => {
    const { app, store, accounts } = await setUp({ users: withOwnersAndEditor });
    await store.addInvitation({ tokenHash: 'f'.repeat(64), name: 'newbie', role: 'author', createdBy: 'olga', createdAt: TEST_EPOCH_MS, expiresAt: TEST_EPOCH_MS + DAY });
    const before = await accounts.list();
    const session = await startSession(app, 'ed');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: session.cookie } })).statusCode, 403);
    const attempts: Array<[string, Record<string, string>]> = [
      ['/admin/users/invite', { name: 'mallory', role: 'owner' }],
      ['/admin/users/role', { name: 'ed', role: 'owner' }],
      ['/admin/users/role', { name: 'olga', role: 'author' }],
      ['/admin/users/remove', { name: 'olga' }],
      ['/admin/users/withdraw', { invitation: 'f'.repeat(64) }],
    ];
    for (const [url, fields] of attempts) assert.equal((await post(app, session, url, fields)).statusCode, 403, url);
    assert.deepEqual(await accounts.list(), before);
    assert.equal((await store.listInvitations(TEST_EPOCH_MS)).length, 1);
    assert.deepEqual(store.auditEvents(), []);
  });

  it("a role change ends the user's open session at once: their next request is sent to sign in", async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor });
    const owner = await startSession(app, 'olga');
    const editor = await startSession(app, 'ed');
    // Live, but not an owner's page: 403.
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: editor.cookie } })).statusCode, 403);

    const answer = await post(app, owner, '/admin/users/role', { name: 'ed', role: 'author' });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/users?notice=role_changed');
    const account = await store.get('ed');
    assert.equal(account?.role, 'author');
    assert.equal(account?.generation, 4);

    const next = await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: editor.cookie } });
    assert.equal(next.statusCode, 303);
    assert.equal(next.headers.location, '/admin/login?next=%2Fadmin%2Fusers');
    assert.equal(store.auditEvents().at(-1)?.event, 'role_changed');
    assert.equal(store.auditEvents().at(-1)?.subject, 'ed');
    assert.match(textOf((await app.inject({ method: 'GET', url: answer.headers.location as string, headers: { cookie: owner.cookie } })).body), /The role was changed; their sessions ended\./);
  });

  it('the last owner cannot demote themself; with another owner they can', async () => {
    // No config users here: every owner is the store's.
    const { app, store } = await setUp({ users: withOwnersAndEditor, configUsers: [] });
    const owner = await startSession(app, 'olga');
    const refused = await post(app, owner, '/admin/users/role', { name: 'olga', role: 'editor' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /You are the last owner: make someone else an owner first\./);
    assert.equal((await store.get('olga'))?.role, 'owner');
    assert.equal((await store.get('olga'))?.generation, 3);

    assert.equal((await post(app, owner, '/admin/users/role', { name: 'ed', role: 'owner' })).statusCode, 303);
    const demoted = await post(app, owner, '/admin/users/role', { name: 'olga', role: 'editor' });
    assert.equal(demoted.statusCode, 303);
    assert.equal((await store.get('olga'))?.role, 'editor');
    // Their own session ended with it.
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: owner.cookie } })).headers.location, '/admin/login?next=%2Fadmin%2Fusers');
  });

  it("refuses changing a config user's role, removing a config user, and removing yourself", async () => {
    const { app, store, accounts } = await setUp({ users: withOwnersAndEditor });
    const before = await accounts.list();
    const owner = await startSession(app, 'olga');
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['/admin/users/role', { name: 'jane', role: 'editor' }, /jane is set in the configuration: change it there\./],
      ['/admin/users/remove', { name: 'jane' }, /jane is set in the configuration: remove them there\./],
      ['/admin/users/remove', { name: 'olga' }, /You cannot remove yourself\./],
    ];
    for (const [url, fields, reason] of cases) {
      const answer = await post(app, owner, url, fields);
      assert.equal(answer.statusCode, 422, url);
      assert.match(answer.body, reason);
    }
    assert.equal((await post(app, owner, '/admin/users/remove', { name: 'nobody' })).statusCode, 404);
    assert.deepEqual(await accounts.list(), before);
    assert.deepEqual(store.auditEvents(), []);
  });

  it('removes a user: their session ends at once, and it is audited', async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor });
    const owner = await startSession(app, 'olga');
    const author = await startSession(app, 'ada');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: author.cookie } })).statusCode, 403);
    const answer = await post(app, owner, '/admin/users/remove', { name: 'ada' });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/users?notice=removed');
    assert.equal(await store.get('ada'), undefined);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: author.cookie } })).headers.location, '/admin/login?next=%2Fadmin%2Fusers');
    assert.deepEqual(
      store.auditEvents().map(({ user, event, subject }) => ({ user, event, subject })),
      [{ user: 'olga', event: 'user_removed', subject: 'ada' }],
    );
  });

  it('withdraws an invitation: it leaves the list and is audited', async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor });
    const owner = await startSession(app, 'olga');
    await post(app, owner, '/admin/users/invite', { name: 'nina', role: 'author' });
    const [invitation] = await store.listInvitations(TEST_EPOCH_MS);
    const answer = await post(app, owner, '/admin/users/withdraw', { invitation: invitation!.tokenHash });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/users?notice=withdrawn');
    assert.deepEqual(await store.listInvitations(TEST_EPOCH_MS), []);
    assert.deepEqual(
      store.auditEvents().map(({ event, subject }) => `${event} ${subject}`),
      ['user_invited nina', 'invitation_withdrawn nina'],
    );
    assert.equal((await post(app, owner, '/admin/users/withdraw', { invitation: invitation!.tokenHash })).headers.location, '/admin/users?notice=missing_invitation');
  });

  it('asks for the password again when it was given more than 15 minutes ago, and re-posts the same change', async () => {
    const { app, store, clock } = await setUp({ users: withOwnersAndEditor });
    const owner = await startSession(app, 'olga');
    clock.advance(15 * MINUTE);
    assert.equal((await post(app, owner, '/admin/users/role', { name: 'ada', role: 'editor' })).statusCode, 303, 'at 15 minutes it is not asked');
    clock.advance(1);

    const asked = await post(app, owner, '/admin/users/role', { name: 'ada', role: 'author' });
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /<form method="post" action="\/admin\/users\/role"/);
    assert.match(asked.body, /<input type="hidden" name="csrf_token" value="[^"]+"\/?>/);
    assert.match(asked.body, /<input type="hidden" name="name" value="ada"\/?>/);
    assert.match(asked.body, /<input type="hidden" name="role" value="author"\/?>/);
    assert.match(asked.body, /name="password" type="password"/);
    assert.equal((await store.get('ada'))?.role, 'editor', 'nothing changed yet');

    const wrong = await post(app, owner, '/admin/users/role', { name: 'ada', role: 'author', password: 'not the password' });
    assert.equal(wrong.statusCode, 403);
    assert.match(wrong.body, /The password is not right\. Nothing was changed\./);
    assert.equal((await store.get('ada'))?.role, 'editor');
    // Every kind of change asks.
    assert.equal((await post(app, owner, '/admin/users/remove', { name: 'ada' })).statusCode, 200);
    assert.equal((await post(app, owner, '/admin/users/invite', { name: 'nina', role: 'author' })).statusCode, 200);
    assert.equal((await post(app, owner, '/admin/users/withdraw', { invitation: 'f'.repeat(64) })).statusCode, 200);
    assert.notEqual(await store.get('ada'), undefined);
    assert.deepEqual(await store.listInvitations(clock()), []);

    const confirmed = await post(app, owner, '/admin/users/role', { name: 'ada', role: 'author', password: PASSWORD });
    assert.equal(confirmed.statusCode, 303);
    assert.equal((await store.get('ada'))?.role, 'author');
    // The session's authAt moved: the next change is not asked for.
    assert.equal((await post(app, owner, '/admin/users/role', { name: 'ada', role: 'editor' })).statusCode, 303);
    assert.equal((await store.get('ada'))?.role, 'editor');
  });

  it('refuses a change without the CSRF token', async () => {
    const { app, store } = await setUp({ users: withOwnersAndEditor });
    const owner = await startSession(app, 'olga');
    const forged = await app.inject(formPost('/admin/users/remove', { name: 'ada' }, { cookie: owner.cookie }));
    assert.equal(forged.statusCode, 403);
    assert.notEqual(await store.get('ada'), undefined);
  });
});
