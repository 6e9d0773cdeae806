// The administration pages at /admin (docs/admin.md), as routes for the front door of the service that serves
// them. Every request under /admin passes `handle` below, which decides sign-in, session, origin and CSRF token
// before any page runs and puts the admin's headers on every answer (admin-pages.ts says what a page gets).
import { timingSafeEqual } from 'node:crypto';
import type { AdminConfig } from '../config/config.js';
import type { Answer } from '../http/answer.js';
import { createAnswerCompression } from '../http/compression.js';
import { createFixedFile, IMMUTABLE } from '../http/fixed-file.js';
import type { Route, RoutedRequest } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock, RandomBytes } from '../ports.js';
import { safeReason } from '../kit/safe-reason.js';
import { ADMIN_ASSETS_PATH, adminAssets } from './admin-assets.js';
import { ADMIN_HEADERS } from './admin-headers.js';
import type { AdminPage, AdminRequest, AdminRoute } from './admin-pages.js';
import { readAdminForm, type AdminForm } from './form-body.js';
import { loginPathFor } from './next-path.js';
import { createPasskeySignInRoutes } from './passkeys/passkey-sign-in.js';
import { createPasswordCheckPool } from '../kit/password-check-pool.js';
import { parsePasswordHash, type PasswordHash } from '../kit/password-hash.js';
import { createDummyHashLike } from './dummy-hash.js';
import { htmlAnswer, redirectAnswer } from './render.js';
import { isFromAnotherSite } from './request-origin.js';
import { sessionCookie, sessionCookieName, sessionIdOf } from './session-cookie.js';
import { recordConfigPasswords, type Accounts } from './accounts/accounts.js';
import { homeOf, OWNERS } from './accounts/roles.js';
import type { AdminSession, SessionStore, SessionStoreOptions } from './sessions.js';
import { createSignIn } from './sign-in.js';
import { SECOND_FACTOR_PATH } from './second-factor/second-factor.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import { CSRF_FIELD } from './views/csrf-field.js';
import { MessagePage } from './views/message-page.js';
import { sizeText } from './post-pages/post-editor-page.js';

/** The signed-in person's own page, the one a user without a required second factor may open. */
const ACCOUNT_PATH = '/admin/account';

/** Room for a POST's fields beside its largest upload. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface AdminSettings {
  admin: AdminConfig;
}

/** The admin's sessions and failed sign-ins, kept by the backend (data_dir or PostgreSQL, docs/admin.md "Sessions"). */
export interface AdminRecords {
  /** The session store; the files backend reads data_dir/admin-sessions.json first. */
  openSessions(options: Omit<SessionStoreOptions, 'file'>): Promise<SessionStore>;
  /** Failed sign-ins: in this process (files) or counted by every replica (PostgreSQL). */
  throttle: SignInThrottle;
}

/** What the admin works through; the composition root makes them. */
export interface AdminAdapters {
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  records: AdminRecords;
  /** The users: the config's and the account store's. */
  accounts: Accounts;
  /** IPv6 clients' sign-ins count per network of this many bits (`[server] rate_limit_ipv6_prefix`). */
  ipv6Prefix?: number;
}

export interface Admin {
  /** For the route table of the service that serves /admin. */
  routes: Route[];
  /** The largest request body the admin reads (the server's 100-continue limit must let it through). */
  maxBodyBytes: number;
  /** Waits for the last session save. */
  close(): Promise<void>;
}

/** What the admin lends its pages: the same password checks as sign-in, and the session store's confirmation. */
export interface AdminTools {
  /** Whether `password` is `user`'s; rejects with PasswordCheckBusyError when the checks are full. */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** The person of `request` gave their password again now: their session's `authAt` moves. */
  confirmSession(request: AdminRequest): Promise<void>;
  /**
   * Ends the session of `request` and starts one for `user` in their generation now (after a change that moved it,
   * so that this browser stays signed in while every other session of the user ends): the Set-Cookie header of the
   * new session, or undefined when the user is gone.
   */
  renewSession(request: AdminRequest, user: string): Promise<Record<string, string> | undefined>;
}

/** Builds /admin behind sign-in, with the pages `pagesOf` makes (createPlaceholderPages() until the posts pages exist). */
export async function createAdmin(settings: AdminSettings, adapters: AdminAdapters, pagesOf: (tools: AdminTools) => readonly AdminRoute[]): Promise<Admin> {
  const { admin } = settings;
  const { logger, clock, accounts } = adapters;
  const assetAnswers = createAssetAnswers();
  const sessionOptions = {
    clock,
    randomBytes: adapters.randomBytes,
    idleMs: admin.session_hours * 3_600_000,
    maxMs: admin.session_max_hours * 3_600_000,
    onSaveError: (error: unknown) => logger.error({ event: 'admin_sessions_not_saved', reason: safeReason(error) }, 'admin sessions not saved'),
  };
  const sessions = await adapters.records.openSessions(sessionOptions);
  // A config user's new password hash (config.toml, then a restart) ends the sessions of the old one. Recorded once,
  // before any request is answered; the shared records may not be reachable yet at start (PostgreSQL still being
  // migrated), so a failure is tried again at the next request, which meanwhile answers 503.
  let passwordsRecorded: Promise<void> | undefined;
  const recordPasswords = (): Promise<void> => {
    passwordsRecorded ??= (async () => {
      for (const name of await recordConfigPasswords(admin.users, accounts.store, clock())) {
        logger.info({ event: 'admin_config_password_changed', user: name }, 'admin config password changed: sessions ended');
        await accounts.store.audit({ at: clock(), event: 'password_changed', subject: name, network: 'config' });
      }
    })().catch((error: unknown) => {
      passwordsRecorded = undefined;
      throw error;
    });
    return passwordsRecorded;
  };
  recordPasswords().catch(() => undefined);
  // Password checks on threads of their own, at most 2 at a time: a burst of sign-ins never delays the forms or the blog.
  const checks = createPasswordCheckPool();
  const checkPassword = (stored: PasswordHash, password: string) => checks.check(stored, password);
  const signIn = createSignIn({
    findAccount: (name) => accounts.find(name),
    dummyHash: createDummyHashLike(admin.users.map((user) => user.password_hash), adapters.randomBytes),
    sessions,
    throttle: adapters.records.throttle,
    clock,
    logger,
    secureCookies: admin.secure_cookies,
    maxSessionMs: sessionOptions.maxMs,
    audit: (event) => accounts.store.audit(event),
    ipv6Prefix: adapters.ipv6Prefix,
    checkPassword,
    randomBytes: adapters.randomBytes,
    updateAccount: (name, change) => accounts.store.update(name, change),
  });
  const tools: AdminTools = {
    async verifyPassword(user, password) {
      const account = await accounts.find(user);
      const parsed = account && parsePasswordHash(account.passwordHash);
      return parsed !== undefined && !('problem' in parsed) && (await checkPassword(parsed, password.slice(0, 1024)));
    },
    async confirmSession(request) {
      const id = sessionIdOf(request.raw.headers.cookie, sessionCookieName(admin.secure_cookies));
      if (id !== undefined) await sessions.confirm(id);
    },
    async renewSession(request, user) {
      await sessions.end(sessionIdOf(request.raw.headers.cookie, sessionCookieName(admin.secure_cookies)));
      const account = await accounts.find(user);
      if (!account) return undefined;
      const { id } = await sessions.start(user, account.generation);
      return { 'set-cookie': sessionCookie(id, admin.secure_cookies, sessionOptions.maxMs) };
    },
  };
  // "Sign in with a passkey" belongs to the sign-in page, whatever pages are given: anonymous routes of its own.
  const passkeySignIn = createPasskeySignInRoutes({
    accounts,
    throttle: adapters.records.throttle,
    finish: (request, account, how) => signIn.finish(request, account, how),
    audit: (event) => accounts.store.audit(event),
    clock,
    logger,
    secureCookies: admin.secure_cookies,
    ipv6Prefix: adapters.ipv6Prefix,
  });
  const pages = [...passkeySignIn, ...pagesOf(tools)];
  const maxBodyBytes = admin.max_upload_bytes + FORM_OVERHEAD_BYTES;
  const findPage = createPageLookup(pages);
  const cookieName = sessionCookieName(admin.secure_cookies);

  /**
   * The live session of `id` whose user still exists, in the generation it signed in with and not removed and added
   * again since, with the user's role now (docs/admin.md "Sessions").
   */
  async function sessionOf(id: string | undefined): Promise<AdminSession | undefined> {
    const found = await sessions.find(id);
    if (!found) return undefined;
    const account = await adapters.accounts.find(found.user);
    if (!account || account.generation !== found.generation || found.createdAt < account.since) return undefined;
    return { user: found.user, role: account.role, csrfToken: found.csrfToken, authAt: found.authAt, timeZone: settings.admin.time_zone };
  }

  async function route(request: RoutedRequest): Promise<Answer> {
    const { method, path } = request;
    const isRead = method === 'GET' || method === 'HEAD';
    if (path.startsWith(ADMIN_ASSETS_PATH)) return isRead ? htmlAnswer(404, <MessagePage title="Not found" message="There is no admin file at this address." />) : notAllowed('GET, HEAD');
    if (!isRead && method !== 'POST') return notAllowed(path === '/admin/logout' ? 'POST' : 'GET, HEAD, POST');
    if (method === 'POST' && isFromAnotherSite(request.raw.headers)) {
      request.raw.resume();
      return refused('This request came from another site.', undefined);
    }
    await recordPasswords();
    const id = sessionIdOf(request.raw.headers.cookie, cookieName);
    const session = await sessionOf(id);
    if (path === '/admin/login') {
      if (isRead) return signIn.showForm(request, session);
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      return body.ok ? signIn.signIn(request, body.form, id) : unreadable(body.problem, undefined);
    }
    if (path === SECOND_FACTOR_PATH) {
      if (isRead) return redirectAnswer('/admin/login');
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      return body.ok ? signIn.secondFactor(request, body.form, id) : unreadable(body.problem, undefined);
    }
    const found = findPage(path);
    // A page for people without a session (accepting an invitation): the origin check above still applies.
    if (found?.anonymous) {
      const open = isRead ? found.anonymous.GET : found.anonymous.POST;
      if (!open) return notAllowed(found.anonymous.POST ? (found.anonymous.GET ? 'GET, HEAD, POST' : 'POST') : 'GET, HEAD');
      if (isRead) return open(request);
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      return body.ok ? open({ ...request, form: body.form }) : unreadable(body.problem, undefined);
    }
    if (!session) {
      request.raw.resume();
      return redirectAnswer(isRead ? loginPathFor(request.url) : '/admin/login');
    }
    if (path === '/admin/logout') {
      if (isRead) return notAllowed('POST');
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      if (!body.ok) return unreadable(body.problem, session);
      return hasCsrfToken(body.form, session) ? signIn.signOut(session, id) : refused('The form was out of date. Please try again.', session);
    }
    if (!found) return htmlAnswer(404, <MessagePage title="Not found" message="There is no admin page at this address." session={session} link={{ href: '/admin/posts', label: 'Back to the posts' }} />);
    const page: AdminPage | undefined = isRead ? found.methods.GET : found.methods.POST;
    if (!page) return notAllowed(found.methods.POST ? (found.methods.GET ? 'GET, HEAD, POST' : 'POST') : 'GET, HEAD');
    // A page outside the person's role: 403 before anything is read or changed (docs/admin.md "Users and roles").
    if (!(found.roles ?? OWNERS).includes(session.role)) {
      request.raw.resume();
      return htmlAnswer(403, <MessagePage title="Not for your role" message="Your role does not open this page." session={session} link={{ href: homeOf(session.role), label: 'Back to the admin' }} />);
    }
    // `[admin] require_second_factor`: a user of those roles without TOTP or a passkey opens only /admin/account.
    if (admin.require_second_factor.includes(session.role) && path !== ACCOUNT_PATH && !path.startsWith(`${ACCOUNT_PATH}/`)) {
      const account = await accounts.find(session.user);
      if (!account?.totp && !account?.passkeys.length) {
        request.raw.resume();
        return redirectAnswer(`${ACCOUNT_PATH}?notice=second_factor_required`);
      }
    }
    if (isRead) return page({ ...request, session }, session);
    const body = await readAdminForm(request.raw, maxBodyBytes);
    if (!body.ok) return unreadable(body.problem, session, { maxUploadBytes: admin.max_upload_bytes, back: sentFromOf(request) ?? homeOf(session.role) });
    if (!hasCsrfToken(body.form, session)) return refused('The form was out of date. Please try again.', session);
    return page({ ...request, session, form: body.form }, session);
  }

  /** The front door's handler for every method on every path under /admin. */
  async function handle(request: RoutedRequest): Promise<Answer> {
    const asset = (request.method === 'GET' || request.method === 'HEAD') && assetAnswers.get(request.path);
    if (asset) return asset({ acceptEncoding: request.raw.headers['accept-encoding'], ifNoneMatch: request.raw.headers['if-none-match'] });
    let answer: Answer;
    try {
      answer = await route(request);
    } catch (error) {
      if (error instanceof UnavailableError) {
        // The shared records are out of reach (docs/admin.md "Several replicas"): 503; the next request tries again.
        request.raw.resume();
        logger.warn({ event: 'admin_unavailable', part: error.part, method: request.method, path: request.path }, 'admin request answered 503');
        answer = unavailable();
      } else {
        logger.error({ event: 'internal_error', reason: safeReason(error), method: request.method, path: request.path }, 'admin request failed');
        answer = htmlAnswer(500, <MessagePage title="Something went wrong" message="The server could not handle this request. Nothing may have been changed; please try again." />);
      }
    }
    // Compressed at a fast level for a client that takes it: pages are made per request (docs/forms-api.md "Compression").
    return compressForClient(withAdminHeaders(answer), request.raw.headers['accept-encoding']);
  }

  return {
    routes: [
      { path: '/admin', methods: { '*': handle } },
      { path: '/admin/', prefix: true, methods: { '*': handle } },
    ],
    maxBodyBytes,
    close: async () => {
      await signIn.close();
      await checks.close();
      await sessions.close();
    },
  };
}

const compressForClient = createAnswerCompression();

/**
 * The answers of the admin's scripts and stylesheet by their versioned address (admin-assets.ts), for anyone (they
 * hold nothing private): the admin's headers but for Cache-Control, as their address changes with their content.
 */
function createAssetAnswers(): ReadonlyMap<string, ReturnType<typeof createFixedFile>> {
  const answers = new Map<string, ReturnType<typeof createFixedFile>>();
  for (const [address, asset] of adminAssets().byPath) {
    answers.set(address, createFixedFile(asset.body, { ...ADMIN_HEADERS, 'cache-control': IMMUTABLE, 'content-type': asset.type }));
  }
  return answers;
}

/** `answer` with the admin's headers, which no page can leave out or override. */
function withAdminHeaders(answer: Answer): Answer {
  const own = Array.isArray(answer.headers) ? pairsToRecord(answer.headers as readonly string[]) : (answer.headers as Record<string, string>);
  return { ...answer, headers: { ...own, ...ADMIN_HEADERS } };
}

function pairsToRecord(pairs: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index + 1 < pairs.length; index += 2) record[(pairs[index] as string).toLowerCase()] = pairs[index + 1] as string;
  return record;
}

/** Whether the form's csrf_token is the session's (compared in constant time). */
function hasCsrfToken(form: AdminForm, session: AdminSession): boolean {
  const sent = Buffer.from(form.fields.get(CSRF_FIELD) ?? '');
  const expected = Buffer.from(session.csrfToken);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function refused(message: string, session: AdminSession | undefined): Answer {
  return htmlAnswer(403, <MessagePage title="Refused" message={message} session={session} link={{ href: '/admin/posts', label: 'Back to the admin' }} />);
}

/** The admin page a POST was sent from (its same-origin Referer), to go back to; undefined when it names none. */
function sentFromOf(request: RoutedRequest): string | undefined {
  const referer = request.raw.headers.referer;
  const host = request.raw.headers.host;
  if (referer === undefined || host === undefined) return undefined;
  try {
    const url = new URL(referer);
    return url.host === host && (url.pathname === '/admin' || url.pathname.startsWith('/admin/')) ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/** What a form that cannot be read is answered: too large names the limit and the way back, where the text still is. */
function unreadable(problem: 'too_large' | 'invalid', session: AdminSession | undefined, options?: { maxUploadBytes: number; back: string }): Answer {
  if (problem === 'invalid') return htmlAnswer(400, <MessagePage title="Not understood" message="The form could not be read." session={session} />);
  const limit = options && `An image or file may be at most ${sizeText(options.maxUploadBytes)} (${options.maxUploadBytes} bytes, [admin] max_upload_bytes). `;
  const message = `What was sent is larger than the admin accepts. ${limit ?? ''}Nothing of this form was saved: go back, where your browser still holds what you typed, and send it without the large file (the editor also offers the draft it kept when you open the post again).`;
  return htmlAnswer(413, <MessagePage title="Too large" message={message} session={session} link={options && { href: options.back, label: 'Back to where you were' }} />, { connection: 'close' });
}

/** While the database of [state] is out of reach: nothing was changed, and a retry in a moment may work. */
function unavailable(): Answer {
  return htmlAnswer(
    503,
    <MessagePage title="Temporarily unavailable" message="The admin's database cannot be reached just now. Nothing was changed; please try again in a moment." />,
    { 'retry-after': '5' },
  );
}

function notAllowed(allow: string): Answer {
  return htmlAnswer(405, <MessagePage title="Not allowed" message="This address does not take that kind of request." />, { allow });
}

interface PageLookup {
  (path: string): AdminRoute | undefined;
}

/** Exact paths first, then prefixes, longest first (like the front door's route table). */
function createPageLookup(pages: readonly AdminRoute[]): PageLookup {
  const exact = new Map<string, AdminRoute>();
  const prefixes = pages.filter((page) => page.prefix).sort((a, b) => b.path.length - a.path.length);
  for (const page of pages) if (!page.prefix && !exact.has(page.path)) exact.set(page.path, page);
  return (path) => exact.get(path) ?? prefixes.find((page) => path.startsWith(page.path));
}
