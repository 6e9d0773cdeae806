// /admin behind a front door of its own, driven through light-my-request: fast test hashes, a test clock, a temp
// data_dir and captured logs. `restart()` builds it again over the same data_dir.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import inject from 'light-my-request';
import { createAdmin, type Admin, type AdminTools } from '../../src/admin/admin.js';
import type { Role } from '../../src/admin/accounts/account.js';
import type { SignInThrottle } from '../../src/admin/sign-in-throttle.js';
import type { AdminRoute } from '../../src/admin/admin-pages.js';
import { hashPassword } from '../../src/kit/password-hash.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createSessionFile } from '../../src/adapters/files/session-file.js';
import { createSessionStore } from '../../src/admin/sessions.js';
import { createAccounts, type Accounts } from '../../src/admin/accounts/accounts.js';
import type { AdminRequest } from '../../src/admin/admin-pages.js';
import { sessionCookieName, sessionIdOf } from '../../src/admin/session-cookie.js';
import { csrfTokenOf, type SessionStore } from '../../src/admin/sessions.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';
import type { AdminConfig } from '../../src/config/config.js';
import { createFrontDoor, type RequestListener } from '../../src/http/front-door.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTestClock, type TestClock } from '../support/clock.js';
import { Secret, TOTP } from 'otpauth';
import type { StoredAccount } from '../../src/admin/accounts/account.js';
import { EVERY_ROLE } from '../../src/admin/accounts/roles.js';
import { createAccountPages } from '../../src/admin/account-pages/account-pages.js';
import { createUsersPages } from '../../src/admin/users-pages/users-pages.js';
import type { AdminPage } from '../../src/admin/admin-pages.js';
import { createMemoryAccountStore as createMemoryStore, type MemoryAccountStore } from '../support/memory-accounts.js';
import { createTempDir } from '../support/temp-dir.js';

export const PASSWORD = 'correct horse battery';

/** Hashes are made once per process, with the smallest N the config accepts, so that tests stay quick. */
let hashes: Promise<string> | undefined;
export function testHash(): Promise<string> {
  hashes ??= hashPassword(PASSWORD, Buffer.alloc(16, 9), { N: 16384, r: 8, p: 1 });
  return hashes;
}

export interface TestAdmin {
  inject(options: inject.InjectOptions): Promise<inject.Response>;
  /** The front door as a Node request listener, for a test that needs a real socket (a streamed answer). */
  listener: RequestListener;
  clock: TestClock;
  logs: LogCapture;
  dataDir: string;
  restart(): Promise<void>;
  close(): Promise<void>;
  /** The stored session keys. */
  storedKeys(): Promise<string[]>;
  /** The users the admin knows: `accounts` as given, else the config's over an in-memory account store. */
  accounts: Accounts;
  /** The session store of the admin as built now (a restart builds another). */
  sessions(): SessionStore;
  /** What the composition hands the users pages as `confirmSession`: the session store's confirm of the cookie's id. */
  confirmSession(request: AdminRequest): Promise<void>;
}

export interface TestAdminOptions {
  dataDir: string;
  users?: string[];
  sessionHours?: number;
  secureCookies?: boolean;
  pages?: AdminRoute[];
  clock?: TestClock;
  /** The users; by default the config's `users` over an empty in-memory account store. */
  accounts?: Accounts;
  /** admin.session_max_hours (default 168). */
  sessionMaxHours?: number;
  /** `[admin] time_zone` the pages show times in (default "UTC"). */
  timeZone?: string;
  /** Instead of `pages`: the pages made with the admin's tools (verifyPassword, confirmSession, renewSession). */
  pagesOf?: (tools: AdminTools) => AdminRoute[];
  /** `[admin] require_second_factor` (default none). */
  requireSecondFactor?: Role[];
  /** The failed sign-ins and the device key; by default a fresh in-memory throttle at each build. */
  throttle?: SignInThrottle;
  /** The `password_hash` of every config user; testHash() (of PASSWORD) by default. */
  passwordHash?: string;
}

export async function startTestAdmin(options: TestAdminOptions): Promise<TestAdmin> {
  const hash = options.passwordHash ?? (await testHash());
  const config: AdminConfig = {
    users: (options.users ?? ['jane']).map((name) => ({ name, password_hash: hash })),
    session_hours: options.sessionHours ?? 12,
    session_max_hours: options.sessionMaxHours ?? 168,
    require_second_factor: options.requireSecondFactor ?? [],
    max_upload_bytes: 1024 * 1024,
    time_zone: options.timeZone ?? 'UTC',
    secure_cookies: options.secureCookies ?? false,
  };
  const clock = options.clock ?? createTestClock();
  const logs = captureLogs();
  const accounts = options.accounts ?? createAccounts(config.users, createMemoryAccountStore());
  let sessionStore: SessionStore | undefined;
  let admin: Admin;
  let handle: RequestListener;
  const build = async () => {
    admin = await createAdmin(
      { admin: config },
      {
        logger: logs.logger,
        clock,
        randomBytes,
        records: {
          openSessions: async (sessionOptions) => (sessionStore = await createSessionStore({ ...sessionOptions, file: createSessionFile(options.dataDir) })),
          throttle: options.throttle ?? createSignInThrottle(),
        },
        accounts,
      },
      (tools) => options.pagesOf?.(tools) ?? options.pages ?? createPlaceholderPages(),
    );
    handle = createFrontDoor({
      routes: admin.routes,
      answers: {
        notFound: () => ({ status: 404, headers: {}, body: 'not found' }),
        badPath: () => ({ status: 400, headers: {}, body: 'bad path' }),
        methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }),
        internalError: () => ({ status: 500, headers: {}, body: 'failed' }),
      },
      clientAddressOf: (request) => request.socket.remoteAddress ?? '',
      requestLog: logs.requestLog,
      logger: logs.logger,
    });
  };
  await build();
  return {
    inject: (injected) => inject((request, response) => handle(request, response), injected),
    listener: (request, response) => handle(request, response),
    clock,
    logs,
    dataDir: options.dataDir,
    async restart() {
      await admin.close();
      await build();
    },
    close: () => admin.close(),
    async storedKeys() {
      const text = await readFile(path.join(options.dataDir, 'admin-sessions.json'), 'utf8').catch(() => '{"sessions":{}}');
      return Object.keys((JSON.parse(text) as { sessions: object }).sessions);
    },
    accounts,
    sessions: () => sessionStore!,
    async confirmSession(request) {
      const id = sessionIdOf(request.raw.headers.cookie, sessionCookieName(config.secure_cookies));
      if (id !== undefined) await sessionStore!.confirm(id);
    },
  };
}

/**
 * A session of `name` started straight in the admin's session store (in the user's generation now), as a sign-in
 * starts it: its id, the CSRF token of its pages and the Cookie header.
 */
export async function startSession(app: TestAdmin, name: string): Promise<{ id: string; csrf: string; cookie: string }> {
  const account = await app.accounts.find(name);
  if (!account) throw new Error(`no user ${name}`);
  const { id } = await app.sessions().start(name, account.generation);
  return { id, csrf: csrfTokenOf(id), cookie: `postbox_admin=${id}` };
}

/** The SHA-256 a session id is stored under. */
export function storedKeyOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The session id a Set-Cookie header carries. */
export function sessionIdFrom(response: inject.Response): string {
  const header = response.headers['set-cookie'];
  const cookie = Array.isArray(header) ? header[0] : header;
  const match = /^postbox_admin=([^;]*)/.exec(cookie ?? '');
  if (!match) throw new Error(`no session cookie in ${String(header)}`);
  return match[1] as string;
}

/** Signs `name` in and returns the session id and the CSRF token of its pages. */
export async function signIn(app: TestAdmin, name = 'jane', options: { remoteAddress?: string } = {}): Promise<{ id: string; csrf: string; cookie: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/login',
    payload: new URLSearchParams({ name, password: PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: options.remoteAddress,
  });
  if (response.statusCode !== 303) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  const id = sessionIdFrom(response);
  const cookie = `postbox_admin=${id}`;
  const page = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  if (!csrf) throw new Error('no CSRF token on /admin/posts');
  return { id, csrf, cookie };
}

/** A urlencoded POST. */
export function formPost(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): inject.InjectOptions {
  return { method: 'POST', url, payload: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } };
}

/** /admin with the account pages (startAccountAdmin): its parts, and `close` removes its data_dir too. */
export interface AccountAdmin {
  app: TestAdmin;
  store: MemoryAccountStore;
  accounts: Accounts;
  clock: TestClock;
  /** The logs of the account pages (the admin's own are `app.logs`). */
  pageLogs: LogCapture;
  close(): Promise<void>;
}

/** A browser signed in: its session cookie and the CSRF token of its pages. */
export interface SignedInBrowser {
  csrf: string;
  cookie: string;
}

/** A page every role opens, standing in for the posts (GET and POST). */
const everyRolePage: AdminPage = (_request, session) => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: `Posts of ${session.user}` });

/**
 * /admin with the account pages (src/admin/account-pages/) over an in-memory store: the config user jane (owner),
 * ada (author) and ed (editor) of the store, all with PASSWORD; /admin/posts opens for every role. With `usersPages`,
 * /admin/users too (src/admin/users-pages/), counting wrong passwords in the same throttle.
 */
export async function startAccountAdmin(options: { requireSecondFactor?: Role[]; usersPages?: boolean } = {}): Promise<AccountAdmin> {
  const hash = await testHash();
  const { dir, remove } = await createTempDir('account-admin');
  const clock = createTestClock();
  const member = (name: string, role: Role): StoredAccount => ({ name, role, passwordHash: hash, generation: 3, passkeys: [], createdAt: clock() - 24 * 3_600_000 });
  const store = createMemoryStore([member('ada', 'author'), member('ed', 'editor')]);
  const accounts = createAccounts([{ name: 'jane', password_hash: hash }], store);
  const throttle = createSignInThrottle({ deviceKey: Buffer.alloc(32, 7) });
  const pageLogs = captureLogs();
  const app = await startTestAdmin({
    dataDir: dir,
    clock,
    accounts,
    throttle,
    requireSecondFactor: options.requireSecondFactor,
    pagesOf: (tools) => [
      { path: '/admin/posts', roles: EVERY_ROLE, methods: { GET: everyRolePage, POST: everyRolePage } },
      ...createPlaceholderPages(),
      ...createAccountPages({
        accounts,
        clock,
        logger: pageLogs.logger,
        randomBytes,
        verifyPassword: tools.verifyPassword,
        confirmSession: tools.confirmSession,
        passwordAttempts: throttle,
        renewSession: tools.renewSession,
        hashPassword: (password) => hashPassword(password, randomBytes(16), { N: 16384, r: 8, p: 1 }),
        networkOf: (request) => request.clientAddress,
        sharedKey: () => throttle.deviceKey(),
        siteName: 'Example',
        secureCookies: false,
      }).map((route) => ({ ...route, roles: EVERY_ROLE })),
      ...(options.usersPages
        ? createUsersPages({
            accounts,
            clock,
            logger: pageLogs.logger,
            randomBytes,
            publicUrl: 'https://admin.example.com',
            verifyPassword: tools.verifyPassword,
            confirmSession: tools.confirmSession,
            passwordAttempts: throttle,
            hashPassword: async () => hash,
            networkOf: (request) => request.clientAddress,
          })
        : []),
    ],
  });
  return {
    app,
    store,
    accounts,
    clock,
    pageLogs,
    async close() {
      await app.close();
      await remove();
    },
  };
}

/** The browser of a sign-in's answer (303 with a session cookie), with the CSRF token read from /admin/account. */
export async function browserOf(app: TestAdmin, answer: inject.Response): Promise<SignedInBrowser> {
  if (answer.statusCode !== 303) throw new Error(`sign-in answered ${answer.statusCode}: ${answer.body}`);
  const cookie = `postbox_admin=${sessionIdFrom(answer)}`;
  const page = await app.inject({ method: 'GET', url: '/admin/account', headers: { cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  if (!csrf) throw new Error('no CSRF token on /admin/account');
  return { csrf, cookie };
}

/** Signs `name` in with a password alone (a user without TOTP); the CSRF token is read from /admin/account. */
export async function signInToAccount(app: TestAdmin, name: string, password = PASSWORD, remoteAddress?: string): Promise<SignedInBrowser> {
  return browserOf(app, await app.inject({ ...formPost('/admin/login', { name, password }), remoteAddress }));
}

/** The code an authenticator app shows for `secret` at `now` (otpauth: SHA-1, 6 digits, 30 s). */
export function totpCodeOf(secret: string, now: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now, algorithm: 'SHA1', digits: 6, period: 30 });
}

/** Sets TOTP up through /admin/account as a person would: the secret read from the page, a code computed from it. */
export async function setUpTotp(app: TestAdmin, browser: SignedInBrowser): Promise<{ secret: string; codes: string[] }> {
  const post = (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: browser.csrf, ...fields }, { cookie: browser.cookie }));
  const setup = await post('/admin/account/totp/setup', {});
  const secret = /id="totp-secret">([^<]+)</.exec(setup.body)?.[1]?.replace(/\s/g, '');
  const pending = /name="pending" value="([^"]+)"/.exec(setup.body)?.[1];
  if (setup.statusCode !== 200 || !secret || !pending) throw new Error(`set-up answered ${setup.statusCode}`);
  const enabled = await post('/admin/account/totp/enable', { pending, code: totpCodeOf(secret, app.clock()) });
  if (enabled.statusCode !== 200) throw new Error(`enabling answered ${enabled.statusCode}: ${enabled.body}`);
  const codes = [...enabled.body.matchAll(/<code>([a-z2-7]{4}-[a-z2-7]{4})<\/code>/g)].map((match) => match[1]!);
  return { secret, codes };
}
