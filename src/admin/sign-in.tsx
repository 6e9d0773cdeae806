// Signing in and out (docs/admin.md "Signing in" and "Sessions"). A wrong name and a wrong password get the same
// message and take the same time (an unknown name is checked against a dummy hash of the same cost). More than 5
// failures in 15 minutes from one address (an IPv6 client: its network) or for one name are answered 429 with
// Retry-After; an attempt takes its place among the failures before its password is checked, so a burst cannot pass
// the limit. A browser that signed in as a name before carries a device cookie for it, and is not held back by the
// failures of that name (only by its address's). Passwords are checked on a small pool of threads of their own;
// when it is full, the attempt is answered 429 at once, unchecked and uncounted.
import { MAX_NAME_LENGTH } from './users-pages/invitations.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Answer } from '../http/answer.js';
import type { RoutedRequest } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import type { AdminForm } from './form-body.js';
import { safeNextPath } from './next-path.js';
import { createPasswordCheckPool, PasswordCheckBusyError } from '../kit/password-check-pool.js';
import { parsePasswordHash, type PasswordHash } from '../kit/password-hash.js';
import type { Account, AuditEvent, StoredAccount } from './accounts/account.js';
import { homeOf } from './accounts/roles.js';
import { htmlAnswer, redirectAnswer } from './render.js';
import { createSecondFactor } from './second-factor/second-factor.js';
import { clearedSessionCookie, cookieValues, sessionCookie } from './session-cookie.js';
import type { AdminSession, SessionStore } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { LoginPage } from './views/login-page.js';

/** The one message for a wrong name or a wrong password. */
export const WRONG_CREDENTIALS = 'The name or the password is not right.';

/** The message when every password check thread is busy and the queue is full. */
export const CHECKS_BUSY = 'Too many sign-ins at once. Try again in a moment.';

/** Longer passwords are not hashed (hash-password would not have made one this long from a terminal either). */
const MAX_PASSWORD_LENGTH = 1024;

/** The cookie that marks a browser which signed in before, per name. */
export const DEVICE_COOKIE = 'postbox_admin_device';
/** 400 days, the longest a browser keeps a cookie (RFC 6265bis section 5.5). */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;
/** The names one browser is remembered for: the most recent ones. */
const DEVICE_NAMES = 4;
const DEVICE_MAC = /^[A-Za-z0-9_-]{43}$/;
/** When the password checks are full: seconds to wait before trying again. */
const BUSY_RETRY_AFTER_S = 1;

export interface SignInOptions {
  /** The user of a name now (the config's or the account store's). */
  findAccount(name: string): Promise<Account | undefined>;
  /** What an unknown name is checked against. */
  dummyHash: PasswordHash;
  sessions: SessionStore;
  throttle: SignInThrottle;
  clock: Clock;
  logger: Logger;
  secureCookies: boolean;
  /** How long a session lives after sign-in (`session_max_hours`): the cookie's Max-Age. */
  maxSessionMs: number;
  /** Records an event in the audit log (docs/admin.md "Users, invitations and the audit log"). */
  audit(event: AuditEvent): Promise<void>;
  /** IPv6 clients are counted per network of this many leading bits ([server] rate_limit_ipv6_prefix); 64 by default. */
  ipv6Prefix?: number;
  /**
   * Whether a password matches a hash; rejects with PasswordCheckBusyError when it cannot check now. By default a
   * pool of 2 threads with 8 checks waiting (kit/password-check-pool.ts), ended by close().
   */
  checkPassword?(stored: PasswordHash, password: string): Promise<boolean>;
  /**
   * The account store's atomic update, for the second step of a user with TOTP (a code's step remembered, a
   * recovery code used up); without it such a user's codes are never right.
   */
  updateAccount?(name: string, change: (current: StoredAccount | undefined) => StoredAccount | undefined): Promise<StoredAccount | undefined>;
}

/** How a sign-in ends. */
export interface FinishOptions {
  /** The session id the browser had, ended now. */
  previousId: string | undefined;
  /** Where to go after (already checked by safeNextPath). */
  next?: string;
  /** The device cookie's MACs the request carried, when already read. */
  knownMacs?: readonly string[];
  /** What the person gave: `password` (with a second factor when they have one), `passkey`. */
  via: 'password' | 'passkey' | 'totp' | 'recovery_code';
}

export interface SignIn {
  /** GET /admin/login: the form, or straight on when already signed in. */
  showForm(request: RoutedRequest, session: AdminSession | undefined): Answer;
  /** POST /admin/login with its read body (the origin check has passed). */
  signIn(request: RoutedRequest, form: AdminForm, previousId: string | undefined): Promise<Answer>;
  /** POST /admin/login/second-factor with its read body: the code of a user with TOTP after their right password. */
  secondFactor(request: RoutedRequest, form: AdminForm, previousId: string | undefined): Promise<Answer>;
  /** POST /admin/logout (the session and CSRF checks have passed): the session ends on the server. */
  signOut(session: AdminSession, id: string | undefined): Promise<Answer>;
  /**
   * Signs `account` in once every factor it needs was given (a password and its second factor, or a passkey): the
   * session, its cookies, the audit line, and a 303 to `next` or the role's home.
   */
  finish(request: RoutedRequest, account: Account, how: FinishOptions): Promise<Answer>;
  /** Ends the password check threads. */
  close(): Promise<void>;
}

export function createSignIn(options: SignInOptions): SignIn {
  const { sessions, throttle, clock, logger } = options;
  const addressKeyOf = createRateLimitKey(options.ipv6Prefix ?? 64);
  const pool = options.checkPassword ? undefined : createPasswordCheckPool();
  const checkPassword = options.checkPassword ?? ((stored: PasswordHash, password: string) => pool!.check(stored, password));

  /** The MACs of the device cookie `cookieHeader` carries (none when it carries none). */
  const deviceMacsOf = (cookieHeader: string | undefined): string[] =>
    cookieValues(cookieHeader, DEVICE_COOKIE).flatMap((value) => value.split('.').filter((mac) => DEVICE_MAC.test(mac))).slice(0, 2 * DEVICE_NAMES);
  const isKnownDevice = async (macs: readonly string[], name: string): Promise<boolean> => {
    if (macs.length === 0) return false;
    const expected = Buffer.from(deviceMacOf(await throttle.deviceKey(), name));
    // Every one is compared, in constant time each.
    return macs.map((mac) => timingSafeEqual(Buffer.from(mac), expected)).includes(true);
  };

  /**
   * The person proved who they are: a new session (a new id at every sign-in, the old one ended, so a planted cookie
   * never becomes a signed-in session), the device cookie, the audit line, and on to `next` or the role's home.
   */
  async function finish(request: RoutedRequest, account: Account, how: FinishOptions): Promise<Answer> {
    const name = account.name;
    await sessions.end(how.previousId);
    const { id } = await sessions.start(name, account.generation);
    logger.info({ event: 'admin_sign_in', user: name, via: how.via }, 'admin signed in');
    await options.audit({ at: clock(), user: name, event: how.via === 'password' ? 'sign_in' : `sign_in_${how.via}`, network: addressKeyOf(request.clientAddress) });
    const mac = deviceMacOf(await throttle.deviceKey(), name);
    const known = how.knownMacs ?? deviceMacsOf(request.raw.headers.cookie);
    const remembered = [mac, ...known.filter((other) => other !== mac)].slice(0, DEVICE_NAMES);
    // Two Set-Cookie headers: Node writes each value of an array as a header of its own.
    const cookies = [sessionCookie(id, options.secureCookies, options.maxSessionMs), deviceCookie(remembered, options.secureCookies)];
    return redirectAnswer(how.next ?? homeOf(account.role), { 'set-cookie': cookies as unknown as string });
  }

  const secondFactor = createSecondFactor({
    findAccount: options.findAccount,
    updateAccount: options.updateAccount ?? (async () => undefined),
    throttle,
    clock,
    logger,
    audit: options.audit,
    addressKeyOf,
    async keysOf(request, name) {
      const macs = deviceMacsOf(request.raw.headers.cookie);
      const ip = `ip:${addressKeyOf(request.clientAddress)}`;
      return { keys: (await isKnownDevice(macs, name)) ? [ip] : [ip, `name:${name}`], macs };
    },
    finish,
  });

  return {
    showForm(request, session) {
      const next = safeNextPath(new URLSearchParams(request.query).get('next'));
      if (session) return redirectAnswer(next ?? homeOf(session.role));
      return htmlAnswer(200, <LoginPage next={next} />);
    },

    async signIn(request, form, previousId) {
      // No user's name is longer than MAX_NAME_LENGTH: a longer one is cut just past it, so it still finds nobody
      // while the per-name throttle keeps no key of unbounded length.
      const name = (form.fields.get('name') ?? '').slice(0, MAX_NAME_LENGTH + 1);
      const password = form.fields.get('password') ?? '';
      const next = safeNextPath(form.fields.get('next'));
      const macs = deviceMacsOf(request.raw.headers.cookie);
      // A browser that signed in as this name before is held back by its address's failures only.
      const knownDevice = await isKnownDevice(macs, name);
      const keys = knownDevice ? [`ip:${addressKeyOf(request.clientAddress)}`] : [`ip:${addressKeyOf(request.clientAddress)}`, `name:${name}`];
      const now = clock();
      // The attempt counts as a failure from here on, before its password is checked: one burst cannot pass the limit.
      const reservation = await throttle.reserve(keys, now);
      const network = addressKeyOf(request.clientAddress);
      const account = await options.findAccount(name);
      if (!reservation.allowed) {
        const seconds = Math.ceil(reservation.waitMs / 1000);
        logger.warn({ event: 'admin_sign_in_throttled', user: account ? name : undefined }, 'admin sign-in throttled');
        return htmlAnswer(429, <LoginPage next={next} name={name} problem={tryAgainMessage(now, seconds)} />, { 'retry-after': String(seconds) });
      }
      const { ticket } = reservation;
      const parsed = account && parsePasswordHash(account.passwordHash);
      const stored = parsed && !('problem' in parsed) ? parsed : undefined;
      let matches: boolean;
      try {
        matches = await checkPassword(stored ?? options.dummyHash, password.slice(0, MAX_PASSWORD_LENGTH));
      } catch (error) {
        // Not checked: not a failure.
        await throttle.release(ticket);
        if (!(error instanceof PasswordCheckBusyError)) throw error;
        logger.warn({ event: 'admin_sign_in_busy', user: stored ? name : undefined }, 'admin sign-in refused: password checks busy');
        return htmlAnswer(429, <LoginPage next={next} name={name} problem={CHECKS_BUSY} />, { 'retry-after': String(BUSY_RETRY_AFTER_S) });
      }
      if (!stored || !matches || password.length > MAX_PASSWORD_LENGTH) {
        // The reservation stays: it is this failure.
        // The attempted name is logged only when it is a user's: a mistyped password in the name field must not land in the log.
        logger.warn({ event: 'admin_sign_in_failed', user: stored ? name : undefined }, 'admin sign-in failed');
        await options.audit({ at: now, user: stored ? name : undefined, event: 'sign_in_failed', network });
        return htmlAnswer(403, <LoginPage next={next} name={name} problem={WRONG_CREDENTIALS} />);
      }
      await throttle.release(ticket);
      // A user with TOTP is not signed in yet: the code is asked first (second-factor/). The name's failures are
      // forgotten only once it is right, so that knowing the password does not reset the count of wrong codes.
      if (account!.totp) return secondFactor.ask(account!, next);
      await throttle.forget(`name:${name}`);
      return finish(request, account!, { previousId, next, knownMacs: macs, via: 'password' });
    },

    finish,

    secondFactor: (request, form, previousId) => secondFactor.verify(request, form, previousId),

    async signOut(session, id) {
      await sessions.end(id);
      logger.info({ event: 'admin_sign_out', user: session.user }, 'admin signed out');
      await options.audit({ at: clock(), user: session.user, event: 'sign_out' });
      return redirectAnswer('/admin/login', { 'set-cookie': clearedSessionCookie(options.secureCookies) });
    },

    async close() {
      await pool?.close();
    },
  };
}

/** The device cookie's MAC for `name`: HMAC-SHA-256 under the throttle's device key, base64url (43 characters). */
function deviceMacOf(key: Buffer, name: string): string {
  return createHmac('sha256', key).update(`postbox admin device\0${name}`, 'utf8').digest('base64url');
}

/** Set-Cookie for the device cookie: the MACs of the names this browser signed in as, newest first. */
function deviceCookie(macs: readonly string[], secure: boolean): string {
  return `${DEVICE_COOKIE}=${macs.join('.')}; Path=/admin; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** "Too many failed sign-ins. Try again in 7 minutes, at 14:05 UTC." */
function tryAgainMessage(now: number, seconds: number): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, at ${at} UTC.`;
}
