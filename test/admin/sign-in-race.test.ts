// Sign-in under attack (docs/admin.md "Signing in"): a burst of attempts sent all at once has at most 5 passwords
// checked per address (an IPv6 client: per /64) and 15 minutes; a browser that signed in as a name before is not
// locked out by a stranger's failures for that name; when every password check thread is busy and the queue is
// full, an attempt is answered 429 at once, unchecked and uncounted.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Answer } from '../../src/http/answer.js';
import type { RoutedRequest } from '../../src/http/route-table.js';
import { CHECKS_BUSY, createSignIn, DEVICE_COOKIE, WRONG_CREDENTIALS, type SignInOptions } from '../../src/admin/sign-in.js';
import type { SessionStore } from '../../src/admin/sessions.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';
import { PasswordCheckBusyError } from '../../src/kit/password-check-pool.js';
import { parsePasswordHash, type PasswordHash } from '../../src/kit/password-hash.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, PASSWORD, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';

const MINUTE_MS = 60_000;

/** A POST /admin/login as createSignIn sees it, from `address`, with `cookie` when given. */
const loginRequest = (address: string, cookie?: string): RoutedRequest => ({
  method: 'POST',
  path: '/admin/login',
  url: '/admin/login',
  query: '',
  clientAddress: address,
  raw: { headers: cookie === undefined ? {} : { cookie } } as IncomingMessage,
});
const formOf = (name: string, password: string) => ({ fields: new URLSearchParams({ name, password }), files: [] });

/** createSignIn with `jane` and `ops`, a memory throttle, sessions that only count, and a password checker that counts. */
async function signInWith(checkPassword?: SignInOptions['checkPassword']) {
  const hashText = await testHash();
  const parsed = parsePasswordHash(hashText) as PasswordHash;
  const started: string[] = [];
  const sessions = {
    start: async (user: string) => {
      started.push(user);
      return { id: 'i'.repeat(43), session: { user } };
    },
    end: async () => undefined,
    find: async () => undefined,
    close: async () => undefined,
  } as unknown as SessionStore;
  const checked: string[] = [];
  const counted = async (stored: PasswordHash, password: string) => {
    checked.push(password);
    // The check takes a while, as scrypt does: every attempt of the burst arrives before the first is answered.
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (checkPassword) return checkPassword(stored, password);
    return stored.hash.equals(parsed.hash) && password === PASSWORD;
  };
  const logs = captureLogs();
  const signIn = createSignIn({
    findAccount: async (name) =>
      ['jane', 'ops'].includes(name) ? { name, role: 'owner', passwordHash: hashText, generation: 0, passkeys: [], devices: [], fromConfig: true, since: 0 } : undefined,
    maxSessionMs: 168 * 3_600_000,
    audit: async () => undefined,
    dummyHash: { ...parsed, hash: Buffer.alloc(parsed.hash.length) },
    sessions,
    throttle: createSignInThrottle(),
    clock: createTestClock(),
    logger: logs.logger,
    secureCookies: false,
    checkPassword: counted,
  });
  return { signIn, checked, started, logs };
}

const statusesOf = (answers: readonly Answer[]) => answers.map((answer) => answer.status);
const count = (values: readonly number[], wanted: number) => values.filter((value) => value === wanted).length;

describe('sign-in under a burst of attempts', () => {
  it('checks at most 5 passwords of 30 wrong ones sent at once from one address, and answers the rest 429', async () => {
    const { signIn, checked } = await signInWith();
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => signIn.signIn(loginRequest('192.0.2.1'), formOf(`guess${index}`, `wrong password ${index}`), undefined)));
      assert.deepEqual([count(statusesOf(answers), 403), count(statusesOf(answers), 429)], [5, 25]);
      assert.equal(checked.length, 5, 'five passwords checked');
      for (const answer of answers.filter((each) => each.status === 429)) assert.equal((answer.headers as Record<string, string>)['retry-after'], String(15 * 60));
    } finally {
      await signIn.close();
    }
  });

  it('does not sign in the right password sent after 19 wrong ones at once', async () => {
    const { signIn, checked, started } = await signInWith();
    try {
      const attempts = Array.from({ length: 19 }, (_, index) => signIn.signIn(loginRequest('192.0.2.1'), formOf('jane', `wrong password ${index}`), undefined));
      attempts.push(signIn.signIn(loginRequest('192.0.2.1'), formOf('jane', PASSWORD), undefined));
      const answers = await Promise.all(attempts);
      assert.ok(checked.length <= 5, `${checked.length} passwords checked`);
      assert.ok(!checked.includes(PASSWORD), 'the right password came too late to be checked');
      assert.equal(answers.at(-1)?.status, 429);
      assert.deepEqual(started, [], 'nobody signed in');
    } finally {
      await signIn.close();
    }
  });

  it('answers 429 with Retry-After at once when every check thread is busy, without counting a failure', async () => {
    let busy = true;
    const { signIn, checked, logs } = await signInWith(async () => {
      if (busy) throw new PasswordCheckBusyError();
      return false;
    });
    try {
      const refused: Answer[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1) refused.push(await signIn.signIn(loginRequest('192.0.2.1'), formOf('jane', 'wrong password'), undefined));
      for (const answer of refused) {
        assert.equal(answer.status, 429);
        assert.equal((answer.headers as Record<string, string>)['retry-after'], '1');
        assert.ok(String(answer.body).includes(CHECKS_BUSY));
      }
      assert.equal(logs.lines().filter((line) => line.event === 'admin_sign_in_busy').length, 10);
      busy = false;
      // None of the ten counted: five more wrong attempts are still checked.
      const later = await Promise.all(Array.from({ length: 6 }, () => signIn.signIn(loginRequest('192.0.2.1'), formOf('jane', 'wrong password'), undefined)));
      assert.deepEqual(statusesOf(later), [403, 403, 403, 403, 403, 429]);
      assert.equal(checked.length, 15);
    } finally {
      await signIn.close();
    }
  });
});

describe('sign-in under attack, over HTTP', () => {
  let app: TestAdmin;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    const temp = await createTempDir('admin-race');
    remove = temp.remove;
    app = await startTestAdmin({ dataDir: temp.dir, users: ['jane', 'ops'] });
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const post = (name: string, password: string, remoteAddress: string, cookie?: string) =>
    app.inject({ ...formPost('/admin/login', { name, password }, cookie === undefined ? {} : { cookie }), remoteAddress });
  /** Passwords checked so far: every check ends in a failure or a sign-in, each logged once. */
  const checkedCount = () => app.logs.lines().filter((line) => line.event === 'admin_sign_in_failed' || line.event === 'admin_sign_in').length;
  const deviceCookieOf = (response: Awaited<ReturnType<typeof post>>): string => {
    const header = response.headers['set-cookie'];
    const cookie = (Array.isArray(header) ? header : [String(header)]).find((each) => each.startsWith(`${DEVICE_COOKIE}=`));
    if (!cookie) throw new Error(`no device cookie in ${String(header)}`);
    return cookie;
  };

  it('checks at most 5 of 299 wrong passwords and the right one sent at once from one address', async () => {
    const attempts = Array.from({ length: 299 }, (_, index) => post(index % 2 === 0 ? 'jane' : `guess${index}`, `wrong password ${index}`, '192.0.2.1'));
    attempts.push(post('jane', PASSWORD, '192.0.2.1'));
    const answers = await Promise.all(attempts);
    const checked = checkedCount();
    assert.ok(checked <= 5, `${checked} passwords checked`);
    assert.equal(count(answers.map((answer) => answer.statusCode), 429), 300 - checked);
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const addresses = ['2001:db8:1:2::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::3', '2001:db8:1:2::4', '2001:db8:1:2:ffff::5'];
    for (const [index, address] of addresses.entries()) assert.equal((await post(`guess${index}`, 'wrong password', address)).statusCode, 403);
    const refused = await post('jane', PASSWORD, '2001:db8:1:2::99');
    assert.equal(refused.statusCode, 429, 'a sixth address of the same /64');
    assert.equal(refused.headers['retry-after'], String(15 * 60));
    assert.equal((await post('jane', PASSWORD, '2001:db8:1:3::1')).statusCode, 303, 'the next /64 is another client');
  });

  it('lets a browser that signed in as jane before sign in while a stranger has locked the name', async () => {
    const first = await post('jane', PASSWORD, '192.0.2.10');
    assert.equal(first.statusCode, 303);
    const device = deviceCookieOf(first);
    assert.match(device, new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{43}; Path=/admin; Max-Age=\\d+; HttpOnly; SameSite=Strict$`));
    const opsDevice = deviceCookieOf(await post('ops', PASSWORD, '192.0.2.11'));
    const cookie = device.split(';', 1)[0]!;

    // A stranger fails five times for jane, from five addresses.
    for (let attempt = 1; attempt <= 5; attempt += 1) assert.equal((await post('jane', 'wrong password', `198.51.100.${attempt}`)).statusCode, 403);
    assert.equal((await post('jane', PASSWORD, '203.0.113.1')).statusCode, 429, 'a browser never signed in as jane is held back');
    assert.equal((await post('jane', PASSWORD, '203.0.113.2', opsDevice.split(';', 1)[0])).statusCode, 429, "ops's device cookie is not jane's");
    assert.equal((await post('jane', PASSWORD, '203.0.113.3', `${DEVICE_COOKIE}=${'A'.repeat(43)}`)).statusCode, 429, 'a made-up cookie');
    const again = await post('jane', PASSWORD, '192.0.2.10', cookie);
    assert.equal(again.statusCode, 303, "jane's browser signs in");

    // The browser's own address still counts.
    app.clock.advance(MINUTE_MS);
    for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await post(`guess${attempt}`, 'wrong password', '192.0.2.20')).statusCode, 403);
    assert.equal((await post('jane', PASSWORD, '192.0.2.20', cookie)).statusCode, 429, 'the address is held back');
  });

  it('answers 429 at once beyond 2 checks running and 8 waiting', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => post(`someone${index}`, 'wrong password', `192.0.2.${index + 1}`)));
    const busy = answers.filter((answer) => answer.statusCode === 429);
    assert.ok(busy.length >= 20, `${busy.length} answered busy`);
    for (const answer of busy) {
      assert.equal(answer.headers['retry-after'], '1');
      assert.ok(answer.body.includes(CHECKS_BUSY));
    }
    assert.equal(count(answers.map((answer) => answer.statusCode), 403), 40 - busy.length);
    assert.ok(answers.filter((answer) => answer.statusCode === 403).every((answer) => answer.body.includes(WRONG_CREDENTIALS)));
  });
});
