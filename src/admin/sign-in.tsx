// Signing in and out (docs/admin.md "Signing in" and "Sessions"). A wrong name and a wrong password get the same
// message and take the same time (an unknown name is checked against a dummy hash of the same cost). More than 5
// failures in 15 minutes from one address (an IPv6 client: its network) or for one name are answered 429 with
// Retry-After; an attempt takes its place among the failures before its password is checked, so a burst cannot pass
// the limit. A browser remembered for the name (devices.ts) counts its failures under a key of its own instead of the
// name's, so a stranger's guesses do not lock it out and a stolen device cookie gets no more tries than the name.
// Passwords are checked on a small pool of threads of their own; when it is full, the attempt is answered 429 at
// once, unchecked and uncounted.
import { MAX_NAME_LENGTH } from './accounts/user-names.js';
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { Answer } from '../http/answer.js';
import type { RoutedRequest } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock, RandomBytes } from '../ports.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import type { AdminForm } from './form-body.js';
import { safeNextPath } from './next-path.js';
import { createPasswordCheckPool, PasswordCheckBusyError } from '../kit/password-check-pool.js';
import { parsePasswordHash, type PasswordHash } from '../kit/password-hash.js';
import type { Account, AuditEvent, StoredAccount } from './accounts/account.js';
import { homeOf } from './accounts/roles.js';
import { htmlAnswer, redirectAnswer } from './render.js';
import { createSecondFactor } from './second-factor/second-factor.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';
import { createDeviceToken, deviceCookie, deviceHashOf, deviceThrottleKeyOf, deviceTokensOf, knownDeviceOf, rememberDevice } from './devices.js';
import type { AdminSession, SessionStore } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { LoginPage } from './views/login-page.js';

/** The one message for a wrong name or a wrong password. */
export const WRONG_CREDENTIALS = 'The name or the password is not right.';

/** The message when every password check thread is busy and the queue is full. */
export const CHECKS_BUSY = 'Too many sign-ins at once. Try again in a moment.';

/** Longer passwords are not hashed (hash-password would not have made one this long from a terminal either). */
const MAX_PASSWORD_LENGTH = 1024;

export { DEVICE_COOKIE } from './devices.js';
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
  /** Where device tokens come from; node:crypto's by default. */
  randomBytes?: RandomBytes;
  /**
   * The account store's atomic update: a remembered browser stored, and for the second step of a user with TOTP a
   * code's step remembered, a recovery code used up. Without it no browser is remembered and such a user's codes
   * are never right.
   */
  updateAccount?(name: string, change: (current: StoredAccount | undefined) => StoredAccount | undefined): Promise<StoredAccount | undefined>;
}

/** How a sign-in ends. */
export interface FinishOptions {
  /** The session id the browser had, ended now. */
  previousId: string | undefined;
  /** Where to go after (already checked by safeNextPath). */
  next?: string;
  /** The device tokens the request carried, when already read. */
  deviceTokens?: readonly string[];
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

  const randomBytes = options.randomBytes ?? cryptoRandomBytes;
  const updateAccount = options.updateAccount ?? (async () => undefined);

  /**
   * The throttle's keys for an attempt of `account` (undefined for an unknown name) named `name` from `request`: the
   * address's, and the remembered browser's when the request carries one of the account's device tokens, else the
   * name's. Also the keys a success forgets, and the device tokens read.
   */
  const throttleKeysOf = (request: RoutedRequest, name: string, account: Account | undefined) => {
    const tokens = deviceTokensOf(request.raw.headers.cookie);
    const device = knownDeviceOf(account, tokens);
    const ip = `ip:${addressKeyOf(request.clientAddress)}`;
    const own = device ? deviceThrottleKeyOf(device) : `name:${name}`;
    return { keys: [ip, own], forget: [...new Set([`name:${name}`, own])], tokens };
  };

  /**
   * Stores a new device token for `account` (in place of the browser's earlier ones for the name) and returns the
   * browser's device tokens to set, newest first; undefined when the account changed meanwhile (nothing stored).
   */
  const rememberBrowser = async (account: Account, tokens: readonly string[]): Promise<string[] | undefined> => {
    const token = createDeviceToken(randomBytes);
    const now = clock();
    const hashes = tokens.map(deviceHashOf);
    let replaced: string[] = [];
    const stored = await updateAccount(account.name, (current) => {
      const base = current ?? (account.fromConfig ? { name: account.name, generation: 0, passkeys: [], createdAt: now } : undefined);
      // A record of another generation (a change since the check) or without a password (not a user) is left alone.
      if (!base || base.generation !== account.generation || (!account.fromConfig && !base.passwordHash)) return undefined;
      replaced = hashes.filter((hash) => base.devices?.some((device) => device.hash === hash));
      return rememberDevice(base, deviceHashOf(token), replaced, now);
    });
    if (!stored) return undefined;
    return [token, ...tokens.filter((_, index) => !replaced.includes(hashes[index]!))];
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
    const remembered = await rememberBrowser(account, how.deviceTokens ?? deviceTokensOf(request.raw.headers.cookie));
    // Two Set-Cookie headers: Node writes each value of an array as a header of its own.
    const cookies = [sessionCookie(id, options.secureCookies, options.maxSessionMs), ...(remembered ? [deviceCookie(remembered, options.secureCookies)] : [])];
    return redirectAnswer(how.next ?? homeOf(account.role), { 'set-cookie': cookies as unknown as string });
  }

  const secondFactor = createSecondFactor({
    findAccount: options.findAccount,
    updateAccount,
    throttle,
    clock,
    logger,
    audit: options.audit,
    addressKeyOf,
    keysOf: (request, account) => throttleKeysOf(request, account.name, account),
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
      const account = await options.findAccount(name);
      // A browser remembered for this name counts its failures under its own key instead of the name's.
      const { keys, forget, tokens } = throttleKeysOf(request, name, account);
      const now = clock();
      // The attempt counts as a failure from here on, before its password is checked: one burst cannot pass the limit.
      const reservation = await throttle.reserve(keys, now);
      const network = addressKeyOf(request.clientAddress);
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
      for (const key of forget) await throttle.forget(key);
      return finish(request, account!, { previousId, next, deviceTokens: tokens, via: 'password' });
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

/** "Too many failed sign-ins. Try again in 7 minutes, at 14:05 UTC." */
function tryAgainMessage(now: number, seconds: number): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, at ${at} UTC.`;
}
