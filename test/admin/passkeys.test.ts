// Passkeys through the admin's own guard (light-my-request) with a software authenticator made here: an ES256 key
// pair from node:crypto, authenticator data and a "none" attestation object written with CBOR, signatures over the
// authenticator data and the client data's hash. /admin/account/passkeys adds, renames and removes (the password
// asked again after 15 minutes), each person their own only; "Sign in with a passkey" signs in without a name, and
// refuses a replayed assertion, another origin, a removed passkey, a counter that went back, and a burst of failures.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';
import type inject from 'light-my-request';
import type { StoredAccount } from '../../src/admin/accounts/account.js';
import { adminAssetPath } from '../../src/admin/admin-assets.js';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { createPasskeyPages } from '../../src/admin/passkeys/passkey-pages.js';
import type { StoredPasskey } from '../../src/admin/passkeys/relying-party.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { parsePasswordHash, verifyPassword } from '../../src/kit/password-hash.js';
import { createTestClock, TEST_EPOCH_MS, type TestClock } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createMemoryAccountStore, type MemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';
import { PASSWORD, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const MINUTE = 60_000;
const HOST = 'localhost:8081';
const ORIGIN = 'http://localhost:8081';
const RP_ID = 'localhost';

type Json = Record<string, unknown>;

/** An authenticator in software: one discoverable ES256 credential, user verification by default. */
class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The counter the next assertion reports (then moved on by `step`, 0 for a counter-less authenticator). */
  counter = 1;
  step = 1;
  userHandle: string | undefined;

  constructor() {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** The COSE_Key of the public key (kty EC2, alg ES256, crv P-256, x, y). */
  coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return encodeCBOR(
      new Map<number, CBORType>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  /** navigator.credentials.create as a browser sends its result, for `options` at `origin`. */
  create(options: Json, origin = ORIGIN, flags: { uv?: boolean } = {}): Json {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    this.userHandle = user.id;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(rp.id),
      Buffer.from([0x01 | (flags.uv === false ? 0 : 0x04) | 0x40]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      Buffer.from(this.coseKey()),
    ]);
    const attestationObject = encodeCBOR(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map<string, CBORType>()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: { credProps: { rk: true } },
      response: { clientDataJSON: clientDataJSON.toString('base64url'), attestationObject: Buffer.from(attestationObject).toString('base64url'), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get as a browser sends its result, for `options` at `origin`. */
  get(options: Json, origin = ORIGIN): Json {
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    this.counter += this.step;
    const authenticatorData = Buffer.concat([sha256((options.rpId as string | undefined) ?? RP_ID), Buffer.from([0x01 | 0x04]), counter]);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: this.userHandle,
      },
    };
  }
}

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

interface Setup {
  app: TestAdmin;
  store: MemoryAccountStore;
  clock: TestClock;
  pageLogs: LogCapture;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** /admin with the passkeys pages; jane is the config's owner, ed an editor and ada an author in the store. */
async function setUp(): Promise<Setup> {
  const hash = await testHash();
  const { dir, remove } = await createTempDir('passkeys');
  const store = createMemoryAccountStore([
    { name: 'ed', role: 'editor', passwordHash: hash, generation: 1, passkeys: [], createdAt: TEST_EPOCH_MS - MINUTE },
    { name: 'ada', role: 'author', passwordHash: hash, generation: 1, passkeys: [], createdAt: TEST_EPOCH_MS - MINUTE },
  ]);
  const accounts = createAccounts([{ name: 'jane', password_hash: hash }], store);
  const pageLogs = captureLogs();
  const deviceKey = randomBytes(32);
  const clock = createTestClock();
  let app: TestAdmin | undefined;
  const pages = createPasskeyPages({
    accounts,
    clock,
    logger: pageLogs.logger,
    secureCookies: false,
    deviceKey: async () => deviceKey,
    async verifyPassword(user, password) {
      const account = await accounts.find(user);
      const parsed = account && parsePasswordHash(account.passwordHash);
      return parsed !== undefined && !('problem' in parsed) && verifyPassword(parsed, password);
    },
    confirmSession: (request) => app!.confirmSession(request),
    passwordAttempts: createSignInThrottle(),
    networkOf: (request) => request.clientAddress,
  });
  app = await startTestAdmin({ dataDir: dir, clock, accounts, pages: [...createPlaceholderPages(), ...pages] });
  cleanups.push(async () => {
    await app!.close();
    await remove();
  });
  return { app, store, clock, pageLogs };
}

type Session = { csrf: string; cookie: string };

/** A POST of `fields` as the browser's script sends it, to the admin at HOST. */
function post(app: TestAdmin, url: string, fields: Record<string, string>, options: { cookie?: string; remoteAddress?: string } = {}): Promise<inject.Response> {
  return app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', ...(options.cookie ? { cookie: options.cookie } : {}) },
    remoteAddress: options.remoteAddress,
  });
}

function get(app: TestAdmin, url: string, cookie?: string): Promise<inject.Response> {
  return app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
}

/** Adds a passkey for the session's person with `authenticator`: the options, then the registration. */
async function addPasskey(app: TestAdmin, session: Session, authenticator: SoftAuthenticator, label = 'Laptop', origin = ORIGIN): Promise<inject.Response> {
  const options = await post(app, '/admin/account/passkeys/options', { csrf_token: session.csrf, label }, { cookie: session.cookie });
  assert.equal(options.statusCode, 200, options.body);
  const { options: creation, token } = options.json() as { options: Json; token: string };
  return post(app, '/admin/account/passkeys/register', { csrf_token: session.csrf, label, token, response: JSON.stringify(authenticator.create(creation, origin)) }, { cookie: session.cookie });
}

/** The sign-in options (anonymous) and the token of their challenge. */
async function signInOptions(app: TestAdmin): Promise<{ options: Json; token: string }> {
  const answer = await post(app, '/admin/login/passkey/options', {});
  assert.equal(answer.statusCode, 200, answer.body);
  return answer.json() as { options: Json; token: string };
}

/** "Sign in with a passkey" with `authenticator`: no name is sent. */
async function passkeySignIn(app: TestAdmin, authenticator: SoftAuthenticator, options: { origin?: string; remoteAddress?: string; next?: string } = {}): Promise<inject.Response> {
  const { options: request, token } = await signInOptions(app);
  const response = authenticator.get(request, options.origin);
  return post(app, '/admin/login/passkey', { token, response: JSON.stringify(response), ...(options.next ? { next: options.next } : {}) }, { remoteAddress: options.remoteAddress });
}

function passkeysOf(store: MemoryAccountStore, name: string): Promise<StoredPasskey[]> {
  return store.get(name).then((account: StoredAccount | undefined) => account?.passkeys ?? []);
}

function cookieOf(answer: inject.Response): string {
  const header = answer.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  const match = /^(postbox_admin=[^;]+)/.exec(first ?? '');
  if (!match) throw new Error(`no session cookie in ${String(header)}`);
  return match[1] as string;
}

describe('/admin/account/passkeys', () => {
  it('says on an IP address that passkeys need a name, links a loopback address to localhost, and refuses the options', async () => {
    const { app } = await setUp();
    const session = await startSession(app, 'ed');
    const on = (host: string) => app.inject({ method: 'GET', url: '/admin/account/passkeys', headers: { host, cookie: session.cookie } });
    const loopback = await on('127.0.0.1:8081');
    assert.equal(loopback.statusCode, 200);
    assert.match(loopback.body, /Passkeys cannot be kept for an IP address such as 127\.0\.0\.1/);
    assert.match(loopback.body, /<a href="http:\/\/localhost:8081\/admin\/account\/passkeys">Open this page on localhost<\/a>/);
    const remote = await on('[2001:db8::5]:8081');
    assert.match(remote.body, /IP address such as 2001:db8::5: browsers keep them for a site's name\. Open \/admin by a name/);
    assert.doesNotMatch(remote.body, /Open this page on localhost/);
    assert.doesNotMatch((await on(HOST)).body, /IP address/, 'a name is fine');

    const options = await app.inject({
      method: 'POST',
      url: '/admin/account/passkeys/options',
      payload: new URLSearchParams({ csrf_token: session.csrf, label: 'Laptop' }).toString(),
      headers: { host: '127.0.0.1:8081', origin: 'http://127.0.0.1:8081', 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', cookie: session.cookie },
    });
    assert.equal(options.statusCode, 400, options.body);
    assert.match((options.json() as { problem: string }).problem, /On this machine, open http:\/\/localhost:8081\/admin instead/);
  });

  it('adds a passkey: registration options for a discoverable credential with user verification, verified, stored and audited', async () => {
    const { app, store, pageLogs } = await setUp();
    const session = await startSession(app, 'ed');
    const page = await get(app, '/admin/account/passkeys', session.cookie);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /You have no passkeys yet/);
    assert.ok(page.body.includes(`<script src="${adminAssetPath('passkeys.js')}" defer></script>`));

    const options = await post(app, '/admin/account/passkeys/options', { csrf_token: session.csrf, label: 'Laptop' }, { cookie: session.cookie });
    assert.equal(options.statusCode, 200);
    assert.match(String(options.headers['content-type']), /^application\/json/);
    const body = options.json() as { options: Json; token: string };
    assert.deepEqual((body.options.rp as Json).id, RP_ID);
    assert.equal((body.options.user as Json).name, 'ed');
    assert.equal((body.options.authenticatorSelection as Json).residentKey, 'required');
    assert.equal((body.options.authenticatorSelection as Json).userVerification, 'required');
    // Signed base64url, not readable text. (A two-letter name such as "ed" turns up in random base64 by chance one
    // run in twenty, so only the label is looked for in the plain.)
    assert.match(body.token, /^pk1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'the token is signed base64url');
    assert.doesNotMatch(body.token, /Laptop/, 'the token is not readable text');

    const authenticator = new SoftAuthenticator();
    const registered = await post(
      app,
      '/admin/account/passkeys/register',
      { csrf_token: session.csrf, label: 'Laptop', token: body.token, response: JSON.stringify(authenticator.create(body.options)) },
      { cookie: session.cookie },
    );
    assert.equal(registered.statusCode, 200, registered.body);
    assert.deepEqual(registered.json(), { location: '/admin/account/passkeys?notice=added' });
    const [stored, ...others] = await passkeysOf(store, 'ed');
    assert.equal(others.length, 0);
    assert.equal(stored?.id, authenticator.id);
    assert.equal(stored?.label, 'Laptop');
    assert.equal(stored?.counter, 0);
    assert.deepEqual(stored?.transports, ['internal']);
    assert.equal(stored?.createdAt, app.clock());
    assert.ok(stored?.publicKey && stored.publicKey.length > 40);
    assert.deepEqual(
      store.auditEvents().filter((event) => event.event === 'passkey_added'),
      [{ at: app.clock(), user: 'ed', event: 'passkey_added', subject: 'Laptop', network: '127.0.0.1' }],
    );
    assert.ok(pageLogs.lines().some((line) => line.event === 'admin_passkey_added' && line.user === 'ed'));

    const listed = await get(app, '/admin/account/passkeys?notice=added', session.cookie);
    assert.match(listed.body, /The passkey was added/);
    assert.match(listed.body, /<td>Laptop<\/td>/);
    assert.match(listed.body, /Never/);

    // The same registration again (its token is still fresh) stores nothing twice.
    const again = await addPasskey(app, session, authenticator);
    assert.equal(again.statusCode, 409);
    assert.equal((await passkeysOf(store, 'ed')).length, 1);
  });

  it('keeps a passkey of a configuration user in the store', async () => {
    const { app, store } = await setUp();
    const session = await startSession(app, 'jane');
    assert.equal((await addPasskey(app, session, new SoftAuthenticator(), 'Phone')).statusCode, 200);
    const record = await store.get('jane');
    assert.equal(record?.role, undefined, 'a configuration user gets no role or password in the store');
    assert.equal(record?.passkeys.length, 1);
    assert.equal((await app.accounts.find('jane'))?.passkeys[0]?.label, 'Phone');
  });

  it('refuses a registration without user verification, from another origin, or with another session\'s token', async () => {
    const { app, store } = await setUp();
    const session = await startSession(app, 'ed');
    const authenticator = new SoftAuthenticator();
    const options = async () => (await post(app, '/admin/account/passkeys/options', { csrf_token: session.csrf, label: 'Key' }, { cookie: session.cookie })).json() as { options: Json; token: string };

    const first = await options();
    const unverified = await post(
      app,
      '/admin/account/passkeys/register',
      { csrf_token: session.csrf, label: 'Key', token: first.token, response: JSON.stringify(authenticator.create(first.options, ORIGIN, { uv: false })) },
      { cookie: session.cookie },
    );
    assert.equal(unverified.statusCode, 400);

    assert.equal((await addPasskey(app, session, authenticator, 'Key', 'http://evil.example')).statusCode, 400);

    // ada's session cannot finish a registration begun by ed.
    const ada = await startSession(app, 'ada');
    const eds = await options();
    const stolen = await post(
      app,
      '/admin/account/passkeys/register',
      { csrf_token: ada.csrf, label: 'Key', token: eds.token, response: JSON.stringify(authenticator.create(eds.options)) },
      { cookie: ada.cookie },
    );
    assert.equal(stolen.statusCode, 400);
    assert.deepEqual(await passkeysOf(store, 'ed'), []);
    assert.deepEqual(await passkeysOf(store, 'ada'), []);
  });

  it('renames and removes; removing is audited and the passkey signs nobody in any more', async () => {
    const { app, store } = await setUp();
    const session = await startSession(app, 'ada');
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, session, authenticator)).statusCode, 200);

    const renamed = await post(app, '/admin/account/passkeys/rename', { csrf_token: session.csrf, id: authenticator.id, label: 'Work laptop' }, { cookie: session.cookie });
    assert.equal(renamed.statusCode, 303);
    assert.equal(renamed.headers.location, '/admin/account/passkeys?notice=renamed');
    assert.equal((await passkeysOf(store, 'ada'))[0]?.label, 'Work laptop');
    const empty = await post(app, '/admin/account/passkeys/rename', { csrf_token: session.csrf, id: authenticator.id, label: '  ' }, { cookie: session.cookie });
    assert.equal(empty.statusCode, 422);

    app.clock.advance(MINUTE);
    assert.equal((await passkeySignIn(app, authenticator)).statusCode, 200, 'it signs in before it is removed');

    const removed = await post(app, '/admin/account/passkeys/remove', { csrf_token: session.csrf, id: authenticator.id }, { cookie: session.cookie });
    assert.equal(removed.statusCode, 303);
    assert.equal(removed.headers.location, '/admin/account/passkeys?notice=removed');
    assert.deepEqual(await passkeysOf(store, 'ada'), []);
    assert.ok(store.auditEvents().some((event) => event.event === 'passkey_removed' && event.user === 'ada' && event.subject === 'Work laptop' && event.network === '127.0.0.1'));

    app.clock.advance(MINUTE);
    const refused = await passkeySignIn(app, authenticator);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['set-cookie'], undefined);
  });

  it('an editor cannot see, rename, remove or register into another person\'s passkeys', async () => {
    const { app, store } = await setUp();
    const jane = await startSession(app, 'jane');
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, jane, authenticator, 'Jane key')).statusCode, 200);

    const ed = await startSession(app, 'ed');
    const page = await get(app, '/admin/account/passkeys', ed.cookie);
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /Jane key/);
    assert.doesNotMatch(page.body, new RegExp(authenticator.id));
    const rename = await post(app, '/admin/account/passkeys/rename', { csrf_token: ed.csrf, id: authenticator.id, label: 'Mine now' }, { cookie: ed.cookie });
    assert.equal(rename.statusCode, 404);
    const remove = await post(app, '/admin/account/passkeys/remove', { csrf_token: ed.csrf, id: authenticator.id, name: 'jane' }, { cookie: ed.cookie });
    assert.equal(remove.statusCode, 404);
    assert.deepEqual(
      (await passkeysOf(store, 'jane')).map((passkey) => passkey.label),
      ['Jane key'],
    );
    // Registering the same credential under ed: it is jane's already.
    assert.equal((await addPasskey(app, ed, authenticator, 'Copy')).statusCode, 409);
    assert.deepEqual(await passkeysOf(store, 'ed'), []);
    // Without the CSRF token of the session nothing is changed either.
    const forged = await post(app, '/admin/account/passkeys/remove', { csrf_token: jane.csrf, id: authenticator.id }, { cookie: ed.cookie });
    assert.equal(forged.statusCode, 403);
    assert.equal((await passkeysOf(store, 'jane')).length, 1);
  });

  it('asks for the password again after 15 minutes, before adding or removing', async () => {
    const { app, store } = await setUp();
    const session = await startSession(app, 'ed');
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, session, authenticator)).statusCode, 200);
    app.clock.advance(16 * MINUTE);

    const options = await post(app, '/admin/account/passkeys/options', { csrf_token: session.csrf, label: 'Phone' }, { cookie: session.cookie });
    assert.equal(options.statusCode, 403);
    assert.equal((options.json() as Json).confirm, true);

    const remove = await post(app, '/admin/account/passkeys/remove', { csrf_token: session.csrf, id: authenticator.id }, { cookie: session.cookie });
    assert.equal(remove.statusCode, 200);
    assert.match(remove.body, /Confirm your password/);
    assert.match(remove.body, new RegExp(`name="id" value="${authenticator.id}"`));
    assert.equal((await passkeysOf(store, 'ed')).length, 1, 'nothing removed yet');
    const wrong = await post(app, '/admin/account/passkeys/remove', { csrf_token: session.csrf, id: authenticator.id, password: 'not the password' }, { cookie: session.cookie });
    assert.equal(wrong.statusCode, 403);
    assert.equal((await passkeysOf(store, 'ed')).length, 1);

    // The add form itself (what the script sends when the password is due) asks, then goes back to the page.
    const add = await post(app, '/admin/account/passkeys/add', { csrf_token: session.csrf, label: 'Phone' }, { cookie: session.cookie });
    assert.equal(add.statusCode, 200);
    assert.match(add.body, /name="label" value="Phone"/);
    const confirmed = await post(app, '/admin/account/passkeys/add', { csrf_token: session.csrf, label: 'Phone', password: PASSWORD }, { cookie: session.cookie });
    assert.equal(confirmed.statusCode, 303);
    assert.equal(confirmed.headers.location, '/admin/account/passkeys?notice=confirmed&label=Phone');
    const back = await get(app, confirmed.headers.location as string, session.cookie);
    assert.match(back.body, /Your password is confirmed/);
    assert.match(back.body, /id="passkey-label"[^>]*value="Phone"/);

    assert.equal((await addPasskey(app, session, new SoftAuthenticator(), 'Phone')).statusCode, 200, 'confirmed: adding goes through');
    assert.equal((await post(app, '/admin/account/passkeys/remove', { csrf_token: session.csrf, id: authenticator.id }, { cookie: session.cookie })).statusCode, 303);
    assert.deepEqual(
      (await passkeysOf(store, 'ed')).map((passkey) => passkey.label),
      ['Phone'],
    );
  });
});

describe('Sign in with a passkey', () => {
  it('the sign-in page offers it through the admin\'s script, hidden until the script shows it', async () => {
    const { app } = await setUp();
    const page = await get(app, '/admin/login');
    assert.ok(page.body.includes(`<script src="${adminAssetPath('passkeys.js')}" defer></script>`));
    assert.match(page.body, /<div class="admin-passkey-sign-in" data-passkey-area="true" hidden>/);
    assert.match(page.body, /Sign in with a passkey/);
    const script = await get(app, adminAssetPath('passkeys.js'));
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.match(script.body, /navigator\.credentials\.get/);
    assert.match(String(script.headers['content-security-policy']), /script-src 'self'/);
  });

  it('signs in without a name: discoverable, user verification required, counter moved, audited', async () => {
    const { app, store } = await setUp();
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);

    const { options } = await signInOptions(app);
    assert.equal(options.userVerification, 'required');
    assert.equal(options.rpId, RP_ID);
    assert.ok(options.allowCredentials === undefined || (options.allowCredentials as unknown[]).length === 0, 'no credentials listed: any passkey of the site');

    authenticator.counter = 7;
    const answer = await passkeySignIn(app, authenticator, { next: '/admin/posts?tag=x' });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { location: '/admin/posts?tag=x' });
    const cookie = cookieOf(answer);
    const page = await get(app, '/admin/account/passkeys', cookie);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Signed in as <strong>ed<\/strong>/);
    assert.doesNotMatch(page.body, /<td>Never<\/td>/, 'the last use is shown');
    const [stored] = await passkeysOf(store, 'ed');
    assert.equal(stored?.counter, 7);
    assert.equal(stored?.lastUsedAt, app.clock());
    assert.ok(store.auditEvents().some((event) => event.event === 'sign_in_passkey' && event.user === 'ed' && event.network === '127.0.0.1'));

    // Without a `next`, the role's home.
    app.clock.advance(MINUTE);
    const home = await passkeySignIn(app, authenticator);
    assert.deepEqual(home.json(), { location: '/admin/posts' });
  });

  it('refuses a replayed assertion, even from an authenticator without a counter', async () => {
    const { app } = await setUp();
    for (const step of [1, 0]) {
      const authenticator = new SoftAuthenticator();
      authenticator.counter = step === 0 ? 0 : 1;
      authenticator.step = step;
      assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator, `step ${step}`)).statusCode, 200);
      app.clock.advance(MINUTE);
      const { options, token } = await signInOptions(app);
      const fields = { token, response: JSON.stringify(authenticator.get(options)) };
      const first = await post(app, '/admin/login/passkey', fields, { remoteAddress: `10.0.0.${step + 1}` });
      assert.equal(first.statusCode, 200, first.body);
      app.clock.advance(1000);
      const replayed = await post(app, '/admin/login/passkey', fields, { remoteAddress: `10.0.0.${step + 1}` });
      assert.equal(replayed.statusCode, 403, `counter step ${step}`);
      assert.equal(replayed.headers['set-cookie'], undefined);
      // A new ceremony with the same authenticator works.
      app.clock.advance(1000);
      assert.equal((await passkeySignIn(app, authenticator, { remoteAddress: `10.0.0.${step + 1}` })).statusCode, 200);
    }
  });

  it('refuses an assertion made for another origin, one with a forged signature, and an unknown credential', async () => {
    const { app, store } = await setUp();
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);

    const otherOrigin = await passkeySignIn(app, authenticator, { origin: 'http://evil.example' });
    assert.equal(otherOrigin.statusCode, 403);
    assert.deepEqual(otherOrigin.json(), { problem: 'This passkey did not sign you in. Try again, or sign in with your password.' });

    const { options, token } = await signInOptions(app);
    const forged = authenticator.get(options);
    (forged.response as Json).signature = sign('sha256', Buffer.from('something else'), authenticator.privateKey).toString('base64url');
    assert.equal((await post(app, '/admin/login/passkey', { token, response: JSON.stringify(forged) })).statusCode, 403);

    assert.equal((await passkeySignIn(app, new SoftAuthenticator())).statusCode, 403, 'a credential nobody registered');
    const failures = store.auditEvents().filter((event) => event.event === 'sign_in_failed');
    assert.equal(failures.length, 3);
    assert.deepEqual(failures[0], { at: app.clock(), user: 'ed', event: 'sign_in_failed', network: '127.0.0.1' });
    assert.equal(failures[2]?.user, undefined);
    assert.equal((await passkeysOf(store, 'ed'))[0]?.lastUsedAt, undefined, 'nothing counted as a use');
  });

  it('refuses a counter that goes backwards', async () => {
    const { app, store } = await setUp();
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);
    authenticator.counter = 5;
    assert.equal((await passkeySignIn(app, authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);
    authenticator.counter = 3;
    assert.equal((await passkeySignIn(app, authenticator)).statusCode, 403);
    authenticator.counter = 6;
    app.clock.advance(MINUTE);
    assert.equal((await passkeySignIn(app, authenticator)).statusCode, 200);
    assert.equal((await passkeysOf(store, 'ed'))[0]?.counter, 6);
  });

  it('refuses an expired or tampered challenge token', async () => {
    const { app } = await setUp();
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);
    const { options, token } = await signInOptions(app);
    app.clock.advance(5 * MINUTE + 1);
    assert.equal((await post(app, '/admin/login/passkey', { token, response: JSON.stringify(authenticator.get(options)) })).statusCode, 403, 'older than 5 minutes');
    const fresh = await signInOptions(app);
    const [version, payload, mac] = fresh.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Json;
    const tampered = `${version}.${Buffer.from(JSON.stringify({ ...claims, i: app.clock() + 1 })).toString('base64url')}.${mac}`;
    assert.equal((await post(app, '/admin/login/passkey', { token: tampered, response: JSON.stringify(authenticator.get(fresh.options)) })).statusCode, 403);
    assert.equal((await post(app, '/admin/login/passkey', { token: fresh.token, response: JSON.stringify(authenticator.get(fresh.options)) })).statusCode, 200);
  });

  it('counts failures in the sign-in throttle per address: the sixth in 15 minutes is 429, unchecked', async () => {
    const { app, store } = await setUp();
    const authenticator = new SoftAuthenticator();
    assert.equal((await addPasskey(app, await startSession(app, 'ed'), authenticator)).statusCode, 200);
    app.clock.advance(MINUTE);
    const stranger = new SoftAuthenticator();
    const burst = await Promise.all(Array.from({ length: 8 }, () => passkeySignIn(app, stranger, { remoteAddress: '192.0.2.7' })));
    assert.equal(burst.filter((answer) => answer.statusCode === 403).length, 5);
    const throttled = burst.filter((answer) => answer.statusCode === 429);
    assert.equal(throttled.length, 3);
    assert.match((throttled[0]!.json() as Json).problem as string, /^Too many failed sign-ins\. Try again in 15 minutes, at \d\d:\d\d UTC\.$/);
    assert.ok(Number(throttled[0]!.headers['retry-after']) > 0);
    // Even the right passkey waits from that address; another address is not held back.
    assert.equal((await passkeySignIn(app, authenticator, { remoteAddress: '192.0.2.7' })).statusCode, 429);
    assert.equal((await passkeySignIn(app, authenticator, { remoteAddress: '192.0.2.8' })).statusCode, 200);
    // And the passwords of that address wait too: one throttle.
    const password = await app.inject({
      method: 'POST',
      url: '/admin/login',
      payload: new URLSearchParams({ name: 'ed', password: PASSWORD }).toString(),
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: '192.0.2.7',
    });
    assert.equal(password.statusCode, 429);
    assert.equal(store.auditEvents().filter((event) => event.event === 'sign_in_failed').length, 5);

    // A success gives its place back: five good sign-ins in a row from one address are never throttled.
    for (let attempt = 0; attempt < 6; attempt += 1) {
      app.clock.advance(1000);
      assert.equal((await passkeySignIn(app, authenticator, { remoteAddress: '192.0.2.9' })).statusCode, 200);
    }
  });
});
