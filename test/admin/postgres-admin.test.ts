// /admin of several replicas over one real PostgreSQL (docs/admin.md "Several replicas"): each replica is the
// composition `postbox serve` makes of the forms service with [admin] and [state] backend = "postgres", in a data_dir
// of its own, so whatever one sees of another comes through the database: sessions, failed sign-ins, the archive's
// rows.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { createPostgresSignInThrottle } from '../../src/adapters/postgres/sign-in-failures.js';
import { createPostgresState } from '../../src/adapters/postgres/state.js';
import { composeServices } from '../../src/app/compose.js';
import { createTestClock, HOUR_MS, type TestClock } from '../support/clock.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type InjectedResponse, type ServiceDriver } from '../support/http.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { PASSWORD, storedKeyOf, testHash } from './admin-app.js';

const ORIGIN = 'https://example.com';

interface Replica {
  app: ServiceDriver;
  logs: LogCapture;
  dataDir: string;
  close(): Promise<void>;
}

describe('/admin of several replicas over one PostgreSQL', () => {
  let postgres: TestPostgres;
  let databases = 0;
  const open: Replica[] = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });
  afterEach(async () => {
    for (const replica of open.splice(0)) await replica.close();
  });

  /** One `postbox serve` (the forms service, /admin on it) over `url`, on `clock`. */
  const startReplica = async (url: string, clock: TestClock): Promise<Replica> => {
    const temp = await createTempDir('admin-replica');
    const config = loadTestConfig(
      {
        data_dir: 'data',
        server: { listen: '127.0.0.1:0' },
        mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
        forms: [{ path: '/contact', type: 'contact', allowed_origins: [ORIGIN], archive: 'contact.jsonl', rate_limit_per_hour: 0 }],
        admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
        state: { backend: 'postgres', url },
      },
      temp.dir,
    );
    const logs = captureLogs();
    const composed = await composeServices(config, { logger: logs.logger, requestLog: logs.requestLog, clock });
    const app = driveService(composed.services.find((service) => service.name === 'forms')!);
    const replica = {
      app,
      logs,
      dataDir: config.data_dir,
      close: async () => {
        await composed.close();
        await temp.remove();
      },
    };
    open.push(replica);
    await waitFor('the replica to migrate', async () => ((await app.inject({ method: 'GET', url: '/health' })).statusCode === 200 ? true : undefined));
    return replica;
  };

  /** Two replicas over a fresh database, on one clock. */
  const twoReplicas = async () => {
    databases += 1;
    const url = await postgres.createDatabase(`admin_${databases}`);
    const clock = createTestClock();
    return { url, clock, a: await startReplica(url, clock), b: await startReplica(url, clock) };
  };

  const signIn = (replica: Replica, password = PASSWORD, remoteAddress = '192.0.2.1') =>
    replica.app.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'jane', password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress,
    });
  const cookieOf = (response: InjectedResponse) => String(response.headers['set-cookie']).split(';', 1)[0]!;
  const page = (replica: Replica, url: string, cookie: string) => replica.app.inject({ method: 'GET', url, headers: { cookie } });
  const csrfOf = async (replica: Replica, cookie: string) => /name="csrf_token" value="([^"]+)"/.exec((await page(replica, '/admin/inbox/contact', cookie)).body)![1]!;
  const post = (replica: Replica, url: string, cookie: string, fields: Record<string, string>) =>
    replica.app.inject({ method: 'POST', url, payload: new URLSearchParams(fields).toString(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } });
  const submit = (replica: Replica, name: string, message: string) =>
    replica.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      payload: JSON.stringify({ name, email: `${name.toLowerCase()}@example.org`, message }),
    });
  const query = async (url: string, text: string, values: unknown[] = []) => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  it('keeps a session made on one replica valid on the other, ends it everywhere at sign-out, and expires it when idle', async () => {
    const { url, clock, a, b } = await twoReplicas();
    const signedIn = await signIn(a);
    assert.equal(signedIn.statusCode, 303);
    const cookie = cookieOf(signedIn);
    assert.equal((await page(b, '/admin/inbox', cookie)).statusCode, 200, 'valid on the other replica at once');
    const id = cookie.split('=')[1]!;
    assert.deepEqual(
      (await query(url, 'SELECT id_hash, user_name FROM admin_sessions')).map((row) => [row.id_hash, row.user_name]),
      [[storedKeyOf(id), 'jane']],
      'only the hash of the id is stored',
    );
    assert.ok(!(await readdir(a.dataDir)).includes('admin-sessions.json'), 'no sessions file');

    // Busy on B for eleven hours: the last-seen time moves in the table, so A keeps it alive too.
    clock.advance(11 * HOUR_MS);
    assert.equal((await page(b, '/admin/inbox', cookie)).statusCode, 200);
    assert.equal(Number((await query(url, 'SELECT last_seen_at FROM admin_sessions'))[0]?.last_seen_at), clock(), 'the last-seen time stored before the answer');
    clock.advance(11 * HOUR_MS);
    assert.equal((await page(a, '/admin/inbox', cookie)).statusCode, 200, 'not idle: seen on B 11 hours ago');
    clock.advance(12 * HOUR_MS);
    const expired = await page(b, '/admin/inbox', cookie);
    assert.equal(expired.statusCode, 303, 'idle for the 12 hours of session_hours');
    assert.match(String(expired.headers.location), /^\/admin\/login/);

    const again = cookieOf(await signIn(b));
    const signedOut = await post(a, '/admin/logout', again, { csrf_token: await csrfOf(a, again) });
    assert.equal(signedOut.statusCode, 303);
    assert.equal((await page(b, '/admin/inbox', again)).statusCode, 303, 'signed out on A: gone on B');
    assert.equal((await query(url, 'SELECT count(*)::int AS n FROM admin_sessions'))[0]!.n, 0, 'the expired one went at the next sign-in');
  });

  it('ends a busy session 7 days after sign-in, whichever replica it is used on', async () => {
    const { clock, a, b } = await twoReplicas();
    const cookie = cookieOf(await signIn(a));
    let used = 0;
    for (; used < 15; used += 1) {
      clock.advance(11 * HOUR_MS);
      assert.equal((await page(used % 2 === 0 ? b : a, '/admin/inbox', cookie)).statusCode, 200, `${(used + 1) * 11} hours after sign-in`);
    }
    clock.advance(3 * HOUR_MS);
    assert.equal((await page(b, '/admin/inbox', cookie)).statusCode, 303, '168 hours after sign-in');
  });

  it('refuses the sixth failed sign-in within 15 minutes whichever replica answers', async () => {
    const { clock, a, b } = await twoReplicas();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await signIn(attempt % 2 === 0 ? a : b, 'wrong password!!', `198.51.100.${attempt}`);
      assert.equal(response.statusCode, 403, `failure ${attempt + 1}`);
    }
    for (const replica of [a, b]) {
      const refused = await signIn(replica, PASSWORD, '198.51.100.99');
      assert.equal(refused.statusCode, 429, 'five failures for the name across both replicas');
      assert.equal(refused.headers['retry-after'], String(15 * 60));
    }
    clock.advance(15 * 60_000);
    assert.equal((await signIn(b)).statusCode, 303, 'allowed again once they are 15 minutes old');
  });

  it('admits at most 5 of many reservations of one address sent at once to two replicas', async () => {
    databases += 1;
    const url = await postgres.createDatabase(`admin_${databases}`);
    const logs = captureLogs();
    // Two pools, as two replicas have.
    const states = [createPostgresState(url, logs.logger), createPostgresState(url, logs.logger)];
    try {
      await Promise.all(states.map((state) => state.migrated()));
      const [a, b] = states.map((state) => createPostgresSignInThrottle(state));
      const now = Date.UTC(2024, 4, 1, 12);
      const reservations = await Promise.all(
        Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? a! : b!).reserve(['ip:198.51.100.7', `name:guess${index}`], now)),
      );
      const allowed = reservations.filter((reservation) => reservation.allowed);
      assert.equal(allowed.length, 5, 'five of forty');
      for (const refused of reservations.filter((reservation) => !reservation.allowed)) assert.deepEqual(refused, { allowed: false, waitMs: 15 * 60_000 });
      assert.equal((await query(url, "SELECT count(*)::int AS n FROM sign_in_failures WHERE key = 'ip:198.51.100.7'"))[0]!.n, 5);

      // A ticket taken back (a sign-in that succeeded) frees its place, on the other replica too.
      const first = allowed[0]!;
      assert.ok(first.allowed);
      await b!.release(first.ticket);
      assert.equal((await query(url, "SELECT count(*)::int AS n FROM sign_in_failures WHERE key = 'ip:198.51.100.7'"))[0]!.n, 4);
      assert.equal((await a!.reserve(['ip:198.51.100.7'], now + 1)).allowed, true);
      assert.equal((await b!.reserve(['ip:198.51.100.7'], now + 2)).allowed, false);

      // One device key for both, kept in the database.
      const [keyA, keyB] = await Promise.all([a!.deviceKey(), b!.deviceKey()]);
      assert.equal(keyA.length, 32);
      assert.ok(keyA.equals(keyB));
    } finally {
      await Promise.all(states.map((state) => state.close()));
    }
  });

  it("lets jane's browser sign in on either replica while a stranger has locked her name", async () => {
    const { a, b } = await twoReplicas();
    const first = await signIn(a, PASSWORD, '192.0.2.10');
    assert.equal(first.statusCode, 303);
    const setCookies = first.headers['set-cookie'];
    const device = (Array.isArray(setCookies) ? setCookies : [String(setCookies)]).find((cookie) => cookie.startsWith('postbox_admin_device='))!.split(';', 1)[0]!;
    for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await signIn(attempt % 2 === 0 ? a : b, 'wrong password!!', `198.51.100.${attempt}`)).statusCode, 403);
    assert.equal((await signIn(b, PASSWORD, '203.0.113.1')).statusCode, 429, 'another browser is held back');
    const withDevice = await b.app.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: device },
      remoteAddress: '192.0.2.10',
    });
    assert.equal(withDevice.statusCode, 303, "the device cookie made on A is good on B");
  });

  it('counts the passwords asked again on both replicas together, and forgets a device on both', async () => {
    const { clock, a, b } = await twoReplicas();
    const first = await signIn(a, PASSWORD, '192.0.2.10');
    const cookie = cookieOf(first);
    const setCookies = first.headers['set-cookie'];
    const device = (Array.isArray(setCookies) ? setCookies : [String(setCookies)]).find((each) => each.startsWith('postbox_admin_device='))!.split(';', 1)[0]!;
    const csrf = await csrfOf(a, cookie);
    clock.advance(16 * 60_000);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const replica = attempt % 2 === 0 ? a : b;
      assert.equal((await post(replica, '/admin/account/forget-devices', cookie, { csrf_token: csrf, password: `wrong ${attempt}` })).statusCode, 403);
    }
    assert.equal((await post(b, '/admin/account/forget-devices', cookie, { csrf_token: csrf, password: PASSWORD })).statusCode, 429, 'five wrong ones over two replicas');
    clock.advance(15 * 60_000);
    assert.equal((await post(b, '/admin/account/forget-devices', cookie, { csrf_token: csrf, password: PASSWORD })).statusCode, 303);

    for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await signIn(attempt % 2 === 0 ? a : b, 'wrong password!!', `198.51.100.${attempt}`)).statusCode, 403);
    const withDevice = await a.app.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: device },
      remoteAddress: '192.0.2.10',
    });
    assert.equal(withDevice.statusCode, 429, 'forgotten on B: unknown on A');
  });

  it('lists the rows the forms service wrote, newest first, searches, shows, deletes on any replica and exports', async () => {
    const { url, clock, a, b } = await twoReplicas();
    for (const [index, name] of ['Ada', 'Grace', 'Edsger'].entries()) {
      const replica = index === 1 ? b : a;
      assert.equal((await submit(replica, name, `Message ${index} from ${name}, été`)).statusCode, 200);
      clock.advance(1_000);
    }
    const cookie = cookieOf(await signIn(b));
    const list = await page(b, '/admin/inbox/contact', cookie);
    assert.equal(list.statusCode, 200);
    const names = [...list.body.matchAll(/<td>(Ada|Grace|Edsger)<\/td>/g)].map((match) => match[1]);
    assert.deepEqual(names, ['Edsger', 'Grace', 'Ada']);

    const found = await page(a, `/admin/inbox/contact?q=${encodeURIComponent('GRACE ÉTÉ')}`, cookie);
    assert.deepEqual([...found.body.matchAll(/<td>(Ada|Grace|Edsger)<\/td>/g)].map((match) => match[1]), ['Grace']);

    const [grace] = await query(url, "SELECT id FROM archives WHERE data->>'name' = 'Grace'");
    const shown = await page(a, `/admin/inbox/contact/${grace!.id}`, cookie);
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /Message 1 from Grace/);
    assert.equal((await page(a, '/admin/inbox/contact/999999', cookie)).statusCode, 404);

    const asked = await post(a, `/admin/inbox/contact/${grace!.id}/delete`, cookie, { csrf_token: await csrfOf(a, cookie) });
    assert.equal(asked.statusCode, 200, 'a delete asks first');
    const deleted = await post(a, `/admin/inbox/contact/${grace!.id}/delete`, cookie, { csrf_token: await csrfOf(a, cookie), confirm: 'yes' });
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/admin/inbox/contact?notice=deleted');
    const twice = await post(b, `/admin/inbox/contact/${grace!.id}/delete`, cookie, { csrf_token: await csrfOf(b, cookie), confirm: 'yes' });
    assert.equal(twice.headers.location, '/admin/inbox/contact?notice=missing', 'deleted on A: missing on B');
    assert.deepEqual((await query(url, "SELECT data->>'name' AS name FROM archives ORDER BY id")).map((row) => row.name), ['Ada', 'Edsger']);
    assert.ok(a.logs.lines().some((line) => line.event === 'admin_submission_deleted' && line.id === String(grace!.id)));

    const exported = await page(b, '/admin/inbox/contact/export.csv', cookie);
    assert.equal(exported.statusCode, 200);
    assert.equal(exported.headers['content-type'], 'text/csv; charset=utf-8; header=present');
    const rows = exported.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    assert.deepEqual(rows, [
      'received_at,name,email,service,message',
      '2024-05-01T12:00:00.000Z,Ada,ada@example.org,,"Message 0 from Ada, été"',
      '2024-05-01T12:00:02.000Z,Edsger,edsger@example.org,,"Message 2 from Edsger, été"',
    ]);
    const dashboard = await page(a, '/admin', cookie);
    assert.equal(dashboard.statusCode, 200);
  });

  it('answers 503 on admin pages while PostgreSQL is down, and recovers by itself', async () => {
    const { a } = await twoReplicas();
    const cookie = cookieOf(await signIn(a));
    await postgres.stop();
    try {
      for (const url of ['/admin/inbox/contact', '/admin', '/admin/login']) {
        const response = await page(a, url, cookie);
        assert.equal(response.statusCode, 503, url);
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.match(response.body, /Temporarily unavailable/);
      }
      assert.equal((await signIn(a)).statusCode, 503);
      assert.ok(a.logs.lines().some((line) => line.event === 'admin_unavailable' && line.part === 'postgres'));
      assert.ok(!a.logs.lines().some((line) => line.event === 'internal_error'));
    } finally {
      await postgres.start();
    }
    await waitFor('the admin to answer again', async () => ((await page(a, '/admin/inbox/contact', cookie)).statusCode === 200 ? true : undefined));
  });
});

