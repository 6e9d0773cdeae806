// /admin/audit and /admin/audit.csv through the admin's own guard (light-my-request) over an in-memory account
// store: newest first, 100 a page, times in [admin] time_zone (UTC here); every event in the CSV (read back by csv-parse) with a formula in
// a name defused; the events the users pages append; owners only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { createAuditPages } from '../../src/admin/audit-pages/audit-pages.js';
import { createUsersPages } from '../../src/admin/users-pages/users-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createTestClock, TEST_EPOCH_MS, type TestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { createMemoryAccountStore, type MemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setUp(): Promise<{ app: TestAdmin; store: MemoryAccountStore; clock: TestClock }> {
  const hash = await testHash();
  const { dir, remove } = await createTempDir('audit-pages');
  const clock = createTestClock();
  const store = createMemoryAccountStore([
    { name: 'olga', role: 'owner', passwordHash: hash, generation: 0, passkeys: [], createdAt: TEST_EPOCH_MS },
    { name: 'ed', role: 'editor', passwordHash: hash, generation: 0, passkeys: [], createdAt: TEST_EPOCH_MS },
  ]);
  const accounts = createAccounts([{ name: 'jane', password_hash: hash }], store);
  let app: TestAdmin | undefined;
  const usersPages = createUsersPages({
    accounts,
    clock,
    logger: captureLogs().logger,
    randomBytes,
    publicUrl: 'https://admin.example.com',
    verifyPassword: async (_user, password) => password === PASSWORD,
    confirmSession: (request) => app!.confirmSession(request),
    passwordAttempts: createSignInThrottle(),
    hashPassword: async () => hash,
    // As the composition gives it: an IPv6 client's /64.
    networkOf: (request) => (request.clientAddress.includes(':') ? '2001:db8:1:2::/64' : request.clientAddress),
  });
  app = await startTestAdmin({ dataDir: dir, clock, accounts, pages: [...createPlaceholderPages(), ...usersPages, ...createAuditPages({ store })] });
  cleanups.push(async () => {
    await app!.close();
    await remove();
  });
  return { app, store, clock };
}

/** The rows of the audit table, as text cells. */
function rowsOf(html: string): string[][] {
  const body = /<tbody>(.*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<[^>]*>/g, '')));
}

describe('/admin/audit', () => {
  it('lists the events newest first, 100 a page, with who, what, whom, when in UTC and the network', async () => {
    const { app, store } = await setUp();
    for (let index = 0; index < 205; index += 1) {
      await store.audit({ at: Date.UTC(2026, 10, 1, 8, 0, index), user: index % 2 ? 'olga' : undefined, event: `event_${index}`, subject: `s${index}`, network: '198.51.100.0' });
    }
    const owner = await startSession(app, 'olga');
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: owner.cookie } });

    const first = await get('/admin/audit');
    assert.equal(first.statusCode, 200);
    const rows = rowsOf(first.body);
    assert.equal(rows.length, 100);
    assert.deepEqual(rows[0], ['1 Nov 2026, 08:03:24', '–', 'event_204', 's204', '198.51.100.0']);
    assert.deepEqual(rows[1], ['1 Nov 2026, 08:03:23', 'olga', 'event_203', 's203', '198.51.100.0']);
    assert.match(first.body, /<a href="\/admin\/audit\?page=2">Older events<\/a>/);
    assert.doesNotMatch(first.body, /Newer events/);
    assert.match(first.body, /<a href="\/admin\/audit" aria-current="page">Audit<\/a>/);
    assert.match(first.body, /<a href="\/admin\/audit.csv">Export CSV<\/a>/);

    const second = await get('/admin/audit?page=2');
    assert.equal(rowsOf(second.body)[0]![2], 'event_104');
    assert.match(second.body, /<a href="\/admin\/audit">Newer events<\/a>/);
    const third = await get('/admin/audit?page=3');
    assert.deepEqual(
      rowsOf(third.body).map((row) => row[2]),
      ['event_4', 'event_3', 'event_2', 'event_1', 'event_0'],
    );
    assert.doesNotMatch(third.body, /Older events/);
    assert.equal(rowsOf((await get('/admin/audit?page=nonsense')).body)[0]![2], 'event_204', 'a bad page number is the first page');
  });

  it('exports every event as CSV, newest first, with a formula in a name defused', async () => {
    const { app, store } = await setUp();
    for (let index = 0; index < 1203; index += 1) await store.audit({ at: Date.UTC(2026, 0, 1) + index * 1000, user: 'olga', event: 'sign_in', network: '198.51.100.0' });
    const owner = await startSession(app, 'olga');
    // Through the page: an invitation for a name a spreadsheet would run.
    const invited = await app.inject(formPost('/admin/users/invite', { csrf_token: owner.csrf, name: '=HYPERLINK("https://evil.example","x")', role: 'author' }, { cookie: owner.cookie }));
    assert.equal(invited.statusCode, 200);

    const csv = await app.inject({ method: 'GET', url: '/admin/audit.csv', headers: { cookie: owner.cookie } });
    assert.equal(csv.statusCode, 200);
    assert.match(csv.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
    assert.equal(csv.headers['content-disposition'], 'attachment; filename="postbox-audit.csv"');
    assert.equal(csv.headers['cache-control'], 'no-store');
    assert.match(csv.body, /^\uFEFFat,user,event,subject,network\r\n/);
    assert.ok(csv.body.includes(`,user_invited,"'=HYPERLINK(""https://evil.example"",""x"")",`), 'the formula is prefixed with a quote');
    const rows = parse(csv.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 1204);
    assert.deepEqual(rows[0], { at: new Date(TEST_EPOCH_MS).toISOString(), user: 'olga', event: 'user_invited', subject: `'=HYPERLINK("https://evil.example","x")`, network: '127.0.0.1' });
    assert.deepEqual(rows[1], { at: '2026-01-01T00:20:02.000Z', user: 'olga', event: 'sign_in', subject: '', network: '198.51.100.0' });
    assert.equal(rows.at(-1)!.at, '2026-01-01T00:00:00.000Z');
  });

  it('records what the users pages change, with the acting user and their network', async () => {
    const { app, store, clock } = await setUp();
    const owner = await startSession(app, 'olga');
    const from = { remoteAddress: '2001:db8:1:2::77' };
    const post = (url: string, fields: Record<string, string>) => app.inject({ ...formPost(url, { csrf_token: owner.csrf, ...fields }, { cookie: owner.cookie }), ...from });
    const token = /token=([A-Za-z0-9_-]{43})/.exec((await post('/admin/users/invite', { name: 'nina', role: 'author' })).body)![1]!;
    clock.advance(1000);
    await post('/admin/users/invite', { name: 'walt', role: 'author' });
    const [walt] = (await store.listInvitations(clock())).filter((invitation) => invitation.name === 'walt');
    clock.advance(1000);
    await post('/admin/users/withdraw', { invitation: walt!.tokenHash });
    clock.advance(1000);
    assert.equal((await app.inject({ ...formPost('/admin/invite', { token, password: 'a long new password', password_again: 'a long new password' }), remoteAddress: '203.0.113.9' })).statusCode, 303);
    clock.advance(1000);
    await post('/admin/users/role', { name: 'ed', role: 'author' });
    clock.advance(1000);
    await post('/admin/users/remove', { name: 'ed' });

    const page = await app.inject({ method: 'GET', url: '/admin/audit', headers: { cookie: owner.cookie } });
    assert.deepEqual(rowsOf(page.body), [
      ['1 May 2024, 12:00:05', 'olga', 'user_removed', 'ed', '2001:db8:1:2::/64'],
      ['1 May 2024, 12:00:04', 'olga', 'role_changed', 'ed', '2001:db8:1:2::/64'],
      ['1 May 2024, 12:00:03', 'nina', 'invitation_accepted', 'nina', '203.0.113.9'],
      ['1 May 2024, 12:00:02', 'olga', 'invitation_withdrawn', 'walt', '2001:db8:1:2::/64'],
      ['1 May 2024, 12:00:01', 'olga', 'user_invited', 'walt', '2001:db8:1:2::/64'],
      ['1 May 2024, 12:00:00', 'olga', 'user_invited', 'nina', '2001:db8:1:2::/64'],
    ]);
  });

  it('is for owners only: an editor gets 403 on the page and the export', async () => {
    const { app, store } = await setUp();
    await store.audit({ at: TEST_EPOCH_MS, user: 'olga', event: 'sign_in', network: '198.51.100.0' });
    const editor = await startSession(app, 'ed');
    for (const url of ['/admin/audit', '/admin/audit.csv']) {
      const answer = await app.inject({ method: 'GET', url, headers: { cookie: editor.cookie } });
      assert.equal(answer.statusCode, 403, url);
      assert.doesNotMatch(answer.body, /sign_in/);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/admin/audit' })).headers.location, '/admin/login?next=%2Fadmin%2Faudit');
  });
});
