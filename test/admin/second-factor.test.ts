// The second step of signing in (src/admin/second-factor/) through the admin's own front door: TOTP set up from the
// secret /admin/account shows, then asked after the right password (no session before the code), a wrong code
// refused (403) and the sixth within 15 minutes throttled (429), a code never taken twice, a recovery code taken
// once, and a pending sign-in that cannot be forged or outlive its 5 minutes.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  browserOf,
  formPost,
  PASSWORD,
  setUpTotp,
  signInToAccount,
  startAccountAdmin,
  totpCodeOf,
  type AccountAdmin,
  type TestAdmin,
} from './admin-app.js';

const MINUTE = 60_000;
const ADDRESS = '198.51.100.20';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The account admin with ada's TOTP set up through /admin/account; signed out again. */
async function withTotp(): Promise<AccountAdmin & { secret: string; codes: string[] }> {
  const admin = await startAccountAdmin();
  cleanups.push(admin.close);
  const browser = await signInToAccount(admin.app, 'ada');
  const { secret, codes } = await setUpTotp(admin.app, browser);
  await admin.app.inject(formPost('/admin/logout', { csrf_token: browser.csrf }, { cookie: browser.cookie }));
  // The code used to turn it on is of this step: move on to the next one.
  admin.clock.advance(30_000);
  return { ...admin, secret, codes };
}

/** The password step: the answer, and the pending sign-in of its page. */
async function password(app: TestAdmin, name = 'ada', remoteAddress = ADDRESS) {
  const answer = await app.inject({ ...formPost('/admin/login', { name, password: PASSWORD, next: '/admin/account' }), remoteAddress });
  const pending = /name="pending" value="([^"]+)"/.exec(answer.body)?.[1] ?? '';
  return { answer, pending };
}

function code(app: TestAdmin, pending: string, value: string, remoteAddress = ADDRESS) {
  return app.inject({ ...formPost('/admin/login/second-factor', { pending, code: value, next: '/admin/account' }), remoteAddress });
}

describe('signing in with a second factor', () => {
  it('asks a user with TOTP for the code after the right password, and signs in with the code the app shows', async () => {
    const { app, store, secret } = await withTotp();
    const { answer, pending } = await password(app);
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['set-cookie'], undefined, 'no session before the code');
    assert.match(answer.body, /<form method="post" action="\/admin\/login\/second-factor"/);
    assert.match(answer.body, /autocomplete="one-time-code"/);
    assert.ok(pending !== '');

    const signedIn = await code(app, pending, totpCodeOf(secret, app.clock()));
    assert.equal(signedIn.statusCode, 303);
    assert.equal(signedIn.headers.location, '/admin/account');
    const browser = await browserOf(app, signedIn);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/account', headers: { cookie: browser.cookie } })).statusCode, 200);
    assert.ok(store.auditEvents().some((event) => event.event === 'sign_in_totp' && event.user === 'ada' && event.network === ADDRESS));
    assert.equal(typeof ((await store.get('ada'))?.totp as { lastStep?: number }).lastStep, 'number', 'the accepted step is kept');
    // A user without TOTP signs in with the password alone.
    assert.equal((await password(app, 'ed')).answer.statusCode, 303);
  });

  it('refuses a wrong code (403), and the sixth attempt within 15 minutes is throttled (429), even with the right code', async () => {
    const { app, store, secret, clock } = await withTotp();
    const { pending } = await password(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await code(app, pending, attempt === 4 ? 'aaaa-bbbb' : '000000');
      assert.equal(wrong.statusCode, 403);
      assert.match(wrong.body, /The code is not right\./);
      assert.equal(wrong.headers['set-cookie'], undefined);
    }
    const throttled = await code(app, pending, totpCodeOf(secret, clock()));
    assert.equal(throttled.statusCode, 429);
    assert.match(String(throttled.headers['retry-after']), /^\d+$/);
    assert.match(throttled.body, /Too many failed sign-ins/);
    assert.equal(store.auditEvents().filter((event) => event.event === 'second_factor_failed').length, 5);
    // The wrong codes count under the name too: from another address, even the password is held back now.
    assert.equal((await password(app, 'ada', '192.0.2.44')).answer.statusCode, 429);
    clock.advance(15 * MINUTE);
    const { pending: later } = await password(app);
    assert.equal((await code(app, later, totpCodeOf(secret, clock()))).statusCode, 303);
  });

  it('never takes a code twice: a replayed code is refused within its window, the next step\'s code is taken', async () => {
    const { app, secret, clock } = await withTotp();
    const used = totpCodeOf(secret, clock());
    const first = await password(app);
    assert.equal((await code(app, first.pending, used)).statusCode, 303);
    // A later sign-in (a pending sign-in is used once, and one from the same moment counts as used with it).
    clock.advance(1);
    const second = await password(app);
    const replayed = await code(app, second.pending, used);
    assert.equal(replayed.statusCode, 403);
    // The code of the step before is inside the window but older than the one taken: refused too.
    assert.equal((await code(app, second.pending, totpCodeOf(secret, clock() - 30_000))).statusCode, 403);
    clock.advance(30_000);
    assert.equal((await code(app, second.pending, totpCodeOf(secret, clock()))).statusCode, 303);
  });

  it('takes a recovery code once, in any case and with or without its hyphen', async () => {
    const { app, store, codes, clock } = await withTotp();
    assert.equal(codes.length, 10);
    const [recovery] = codes as [string];
    const first = await password(app);
    const signedIn = await code(app, first.pending, ` ${recovery.toUpperCase()} `);
    assert.equal(signedIn.statusCode, 303);
    assert.equal((await store.get('ada'))?.totp?.recoveryCodeHashes.length, 9);
    assert.ok(store.auditEvents().some((event) => event.event === 'recovery_code_used' && event.user === 'ada' && event.network === ADDRESS));
    assert.ok(store.auditEvents().some((event) => event.event === 'sign_in_recovery_code'));
    clock.advance(1);
    const second = await password(app);
    assert.equal((await code(app, second.pending, recovery.replace('-', ''))).statusCode, 403, 'used up');
    assert.equal((await code(app, second.pending, codes[1]!)).statusCode, 303, 'another one works');
    assert.ok(!app.logs.text().includes(recovery));
  });

  it('refuses a forged, changed or expired pending sign-in, and one from before a new generation', async () => {
    const { app, store, secret, clock } = await withTotp();
    const { pending } = await password(app);
    const [name, generation, expiry, mac] = pending.split('.') as [string, string, string, string];
    const otherName = Buffer.from('ed').toString('base64url');
    for (const forged of ['', 'x.y.z.w', `${otherName}.${generation}.${expiry}.${mac}`, `${name}.${generation}.${Number(expiry) + 60_000}.${mac}`]) {
      const answer = await code(app, forged, totpCodeOf(secret, clock()));
      assert.equal(answer.statusCode, 403);
      assert.match(answer.body, /Sign in again/);
    }
    clock.advance(5 * MINUTE);
    const late = await code(app, pending, totpCodeOf(secret, clock()));
    assert.equal(late.statusCode, 403);
    assert.match(late.body, /took longer than 5 minutes/);

    const fresh = await password(app);
    await store.update('ada', (current) => current && { ...current, generation: current.generation + 1 });
    assert.equal((await code(app, fresh.pending, totpCodeOf(secret, clock()))).statusCode, 403);
    // GET of the step's address leads back to the sign-in page.
    assert.equal((await app.inject({ method: 'GET', url: '/admin/login/second-factor' })).headers.location, '/admin/login');
  });

  it('signs in once from a burst of posts of one pending sign-in with right codes, and refuses it afterwards', async () => {
    const { app, store, secret, codes, clock } = await withTotp();
    const { pending } = await password(app);
    const now = clock();
    // The step before now was taken when TOTP was set up: these are the right codes now.
    const rightCodes = [totpCodeOf(secret, now), totpCodeOf(secret, now + 30_000), codes[0]!, codes[1]!, codes[2]!];
    const answers = await Promise.all(rightCodes.map((each) => code(app, pending, each)));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 303).length, 1, statuses.join(' '));
    for (const answer of answers.filter((each) => each.statusCode !== 303)) {
      assert.equal(answer.statusCode, 403);
      assert.match(answer.body, /Sign in again/);
    }
    assert.equal(store.auditEvents().filter((event) => event.event.startsWith('sign_in_')).length, 1);

    const reused = await code(app, pending, codes[3]!);
    assert.equal(reused.statusCode, 403, 'used once');
    assert.match(reused.body, /Sign in again/);
    const recoveryUsed = statuses.slice(2).includes(303) ? 1 : 0;
    assert.equal((await store.get('ada'))?.totp?.recoveryCodeHashes.length, 10 - recoveryUsed, 'no recovery code taken by a refused post');
    // The refused posts were no failures: five more wrong codes are still counted before the sixth is held back.
    clock.advance(1);
    const fresh = await password(app);
    for (let attempt = 0; attempt < 5; attempt += 1) assert.equal((await code(app, fresh.pending, '000000')).statusCode, 403);
    assert.equal((await code(app, fresh.pending, '000000')).statusCode, 429);
  });
});
