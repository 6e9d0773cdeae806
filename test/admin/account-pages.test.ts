// /admin/account through the admin's own guard (light-my-request) over an in-memory account store: a new password
// ends the other browsers' sessions while this one stays signed in, and only the new password signs in; "Sign out
// everywhere" ends every session; TOTP set up from the secret the page shows (the code computed here with otpauth),
// its pending secret signed so it cannot be swapped; turning it off; the password asked again after 15 minutes;
// config users without a password form; and `require_second_factor` sending an author without one to the page.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Role } from '../../src/admin/accounts/account.js';
import { TEST_EPOCH_MS } from '../support/clock.js';
import {
  formPost,
  PASSWORD,
  sessionIdFrom,
  setUpTotp,
  signInToAccount as signIn,
  startAccountAdmin,
  totpCodeOf as codeAt,
  type AccountAdmin,
  type SignedInBrowser as Browser,
  type TestAdmin,
} from './admin-app.js';

const MINUTE = 60_000;
const NEW_PASSWORD = 'a new and longer passphrase';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** /admin with the account pages: config user jane (owner), ada (author) and ed (editor), generation 3. */
async function setUp(options: { requireSecondFactor?: Role[] } = {}): Promise<AccountAdmin> {
  const admin = await startAccountAdmin(options);
  cleanups.push(admin.close);
  return admin;
}

function post(app: TestAdmin, browser: Browser, url: string, fields: Record<string, string>, remoteAddress = '203.0.113.9') {
  return app.inject({ ...formPost(url, { csrf_token: browser.csrf, ...fields }, { cookie: browser.cookie }), remoteAddress });
}

function get(app: TestAdmin, browser: { cookie: string }, url: string) {
  return app.inject({ method: 'GET', url, headers: { cookie: browser.cookie } });
}

/** The text of a page without its tags, white space folded. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
}

describe('/admin/account', () => {
  it('shows every role its own account, with the password form, and a config user none', async () => {
    const { app } = await setUp();
    const ada = await signIn(app, 'ada');
    const page = await get(app, ada, '/admin/account');
    assert.equal(page.statusCode, 200);
    assert.match(textOf(page.body), /Signed in as ada , author\./);
    assert.match(page.body, /name="current_password" type="password"/);
    assert.match(page.body, /name="new_password" type="password"[^>]*minLength="12"|minlength="12"/i);
    assert.match(page.body, /<a href="\/admin\/account" aria-current="page">Account<\/a>/);
    assert.match(page.body, /action="\/admin\/account\/totp\/setup"/);
    assert.match(page.body, /action="\/admin\/account\/sign-out-everywhere"/);

    const jane = await signIn(app, 'jane');
    const own = await get(app, jane, '/admin/account');
    assert.match(textOf(own.body), /set in the configuration/);
    assert.match(textOf(own.body), /postbox hash-password/);
    assert.doesNotMatch(own.body, /name="current_password"/);
    const refused = await post(app, jane, '/admin/account/password', { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    assert.equal(refused.statusCode, 422);
  });

  it('a new password ends the other browser\'s session, keeps this one signed in, and only the new password signs in', async () => {
    const { app, store } = await setUp();
    const here = await signIn(app, 'ada');
    const elsewhere = await signIn(app, 'ada');
    const generation = (await store.get('ada'))!.generation;

    const short = await post(app, here, '/admin/account/password', { current_password: PASSWORD, new_password: 'too short', new_password_again: 'too short' });
    assert.equal(short.statusCode, 422);
    assert.match(short.body, /at least 12 characters/);
    const differ = await post(app, here, '/admin/account/password', { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: `${NEW_PASSWORD}!` });
    assert.equal(differ.statusCode, 422);
    const wrong = await post(app, here, '/admin/account/password', { current_password: 'not my password', new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    assert.equal(wrong.statusCode, 403);
    assert.equal((await store.get('ada'))!.generation, generation, 'nothing changed');

    const changed = await post(app, here, '/admin/account/password', { current_password: PASSWORD, new_password: NEW_PASSWORD, new_password_again: NEW_PASSWORD });
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, '/admin/account?notice=password_changed');
    assert.equal((await store.get('ada'))!.generation, generation + 1);
    assert.match((await store.get('ada'))!.passwordHash!, /^scrypt\$/);
    const renewed = { csrf: '', cookie: `postbox_admin=${sessionIdFrom(changed)}` };

    // This browser, with the cookie of the answer, is still signed in; the other browser's next request goes to sign-in.
    const after = await get(app, renewed, '/admin/account?notice=password_changed');
    assert.equal(after.statusCode, 200);
    assert.match(textOf(after.body), /Your password was changed/);
    assert.equal((await get(app, elsewhere, '/admin/posts')).headers.location, '/admin/login?next=%2Fadmin%2Fposts');
    assert.equal((await get(app, here, '/admin/posts')).statusCode, 303, 'the old cookie of this browser opens nothing either');

    const oldPassword = await app.inject(formPost('/admin/login', { name: 'ada', password: PASSWORD }));
    assert.equal(oldPassword.statusCode, 403);
    const newPassword = await app.inject(formPost('/admin/login', { name: 'ada', password: NEW_PASSWORD }));
    assert.equal(newPassword.statusCode, 303);
    assert.deepEqual(
      store.auditEvents().filter((event) => event.event === 'password_changed'),
      [{ at: TEST_EPOCH_MS, user: 'ada', event: 'password_changed', network: '203.0.113.9' }],
    );
    assert.ok(!app.logs.text().includes(NEW_PASSWORD));
  });

  it('"Sign out everywhere" ends every session of the user, this one too, for a config user as well', async () => {
    const { app, store } = await setUp();
    const here = await signIn(app, 'jane');
    const elsewhere = await signIn(app, 'jane');
    const other = await signIn(app, 'ada');
    const answer = await post(app, here, '/admin/account/sign-out-everywhere', {});
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/login');
    assert.match(String(answer.headers['set-cookie']), /^postbox_admin=; .*Max-Age=0/);
    for (const browser of [here, elsewhere]) assert.equal((await get(app, browser, '/admin/account')).statusCode, 303);
    assert.equal((await get(app, other, '/admin/account')).statusCode, 200, 'other users stay signed in');
    assert.equal((await store.get('jane'))?.generation, 1, 'a record is kept for the config user');
    assert.equal(store.auditEvents().find((event) => event.event === 'signed_out_everywhere')?.user, 'jane');
    // Signing in again works.
    await signIn(app, 'jane');
  });

  it('sets TOTP up from the secret shown (QR code, otpauth address), with 10 recovery codes shown once, and turns it off', async () => {
    const { app, store, pageLogs } = await setUp();
    const ada = await signIn(app, 'ada');
    const setup = await post(app, ada, '/admin/account/totp/setup', {});
    assert.equal(setup.statusCode, 200);
    assert.match(setup.body, /<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" width="200" height="200" alt="QR code/);
    const secret = /id="totp-secret">([^<]+)</.exec(setup.body)![1]!.replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.match(setup.body, new RegExp(`href="otpauth://totp/Postbox:ada%20\\(Example\\)\\?issuer=Postbox&amp;secret=${secret}&amp;algorithm=SHA1&amp;digits=6&amp;period=30"`));
    const pending = /name="pending" value="([^"]+)"/.exec(setup.body)![1]!;
    assert.equal((await store.get('ada'))?.totp, undefined, 'nothing stored before a code');

    const wrong = await post(app, ada, '/admin/account/totp/enable', { pending, code: codeAt(secret, TEST_EPOCH_MS - 10 * MINUTE) });
    assert.equal(wrong.statusCode, 422);
    assert.match(wrong.body, /The code is not right/);
    // Another secret slipped in, with the same MAC: refused.
    const swapped = pending.replace(secret, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    assert.equal((await post(app, ada, '/admin/account/totp/enable', { pending: swapped, code: codeAt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', app.clock()) })).statusCode, 422);
    // Nor can another session finish it.
    const ed = await signIn(app, 'ed');
    assert.equal((await post(app, ed, '/admin/account/totp/enable', { pending, code: codeAt(secret, app.clock()) })).statusCode, 422);
    assert.equal((await store.get('ed'))?.totp, undefined);

    const enabled = await post(app, ada, '/admin/account/totp/enable', { pending, code: codeAt(secret, app.clock()) });
    assert.equal(enabled.statusCode, 200);
    const codes = [...enabled.body.matchAll(/<code>([a-z2-7]{4}-[a-z2-7]{4})<\/code>/g)].map((match) => match[1]!);
    assert.equal(new Set(codes).size, 10);
    const totp = (await store.get('ada'))!.totp!;
    assert.equal(totp.secret, secret);
    assert.equal(totp.enabledAt, TEST_EPOCH_MS);
    assert.equal(totp.recoveryCodeHashes.length, 10);
    assert.ok(totp.recoveryCodeHashes.every((hash) => /^[0-9a-f]{64}$/.test(hash)));
    assert.ok(!JSON.stringify(totp).includes(codes[0]!.replace('-', '')), 'only hashes are kept');
    assert.ok(!pageLogs.text().includes(secret) && !app.logs.text().includes(secret), 'the secret is not logged');

    const page = await get(app, ada, '/admin/account');
    assert.match(textOf(page.body), /Recovery codes left: 10 of 10/);
    assert.doesNotMatch(page.body, /<code>[a-z2-7]{4}-/, 'the codes are not shown again');
    assert.equal((await post(app, ada, '/admin/account/totp/setup', {})).headers.location, '/admin/account?notice=totp_on');

    const off = await post(app, ada, '/admin/account/totp/disable', {});
    assert.equal(off.statusCode, 303);
    assert.equal(off.headers.location, '/admin/account?notice=totp_disabled');
    assert.equal((await store.get('ada'))?.totp, undefined);
    assert.deepEqual(
      store.auditEvents().filter((event) => event.event.startsWith('totp')).map(({ event, user, network }) => `${event} ${user} ${network}`),
      ['totp_enabled ada 203.0.113.9', 'totp_disabled ada 203.0.113.9'],
    );
  });

  it('a config user keeps a TOTP factor in the store', async () => {
    const { app, store } = await setUp();
    const jane = await signIn(app, 'jane');
    const { secret } = await setUpTotp(app, jane);
    assert.equal((await store.get('jane'))?.totp?.secret, secret);
    assert.equal((await store.get('jane'))?.role, undefined, 'the role stays the configuration\'s');
  });

  it('asks for the password again after 15 minutes before signing out everywhere or changing the second factor', async () => {
    const { app, store, clock } = await setUp();
    const ada = await signIn(app, 'ada');
    clock.advance(15 * MINUTE + 1);
    const asked = await post(app, ada, '/admin/account/sign-out-everywhere', {});
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /Confirm your password/);
    assert.match(asked.body, /<form method="post" action="\/admin\/account\/sign-out-everywhere"/);
    assert.match(asked.body, /<a href="\/admin\/account">Cancel<\/a>/);
    assert.equal((await post(app, ada, '/admin/account/totp/setup', {})).statusCode, 200);
    assert.match((await post(app, ada, '/admin/account/totp/setup', {})).body, /Confirm your password/);
    const wrong = await post(app, ada, '/admin/account/sign-out-everywhere', { password: 'not the password' });
    assert.equal(wrong.statusCode, 403);
    assert.equal((await store.get('ada'))?.generation, 3, 'nothing changed');
    const confirmed = await post(app, ada, '/admin/account/sign-out-everywhere', { password: PASSWORD });
    assert.equal(confirmed.statusCode, 303);
    assert.equal(confirmed.headers.location, '/admin/login');
    assert.equal((await store.get('ada'))?.generation, 4);
  });

  it('with require_second_factor, an author without one is sent to /admin/account until TOTP is on; other roles are not', async () => {
    const { app } = await setUp({ requireSecondFactor: ['author', 'owner'] });
    const ada = await signIn(app, 'ada');
    const sent = await get(app, ada, '/admin/posts');
    assert.equal(sent.statusCode, 303);
    assert.equal(sent.headers.location, '/admin/account?notice=second_factor_required');
    assert.equal((await post(app, ada, '/admin/posts', {})).headers.location, '/admin/account?notice=second_factor_required');
    const account = await get(app, ada, '/admin/account?notice=second_factor_required');
    assert.equal(account.statusCode, 200);
    assert.match(textOf(account.body), /Your role needs a second factor/);
    // Setting TOTP up works from there, after which the pages open.
    await setUpTotp(app, ada);
    const posts = await get(app, ada, '/admin/posts');
    assert.equal(posts.statusCode, 200);
    const ed = await signIn(app, 'ed');
    assert.equal((await get(app, ed, '/admin/posts')).statusCode, 200);
    // Signing out is never sent to the account page.
    const out = await post(app, await signIn(app, 'jane'), '/admin/logout', {});
    assert.equal(out.headers.location, '/admin/login');
  });
});
