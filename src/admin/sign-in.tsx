// Signing in and out (docs/admin.md "Signing in" and "Sessions"). A wrong name and a wrong password get the
// same message and take the same time (an unknown name is checked against a dummy hash of the same cost); more
// than 5 failures in 15 minutes from one address or for one name are answered 429 with Retry-After.
import type { Answer } from '../http/answer.js';
import type { RoutedRequest } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { AdminForm } from './form-body.js';
import { DEFAULT_NEXT, safeNextPath } from './next-path.js';
import { verifyPassword, type PasswordHash } from '../kit/password-hash.js';
import { htmlAnswer, redirectAnswer } from './render.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';
import type { AdminSession, SessionStore } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { LoginPage } from './views/login-page.js';

/** The one message for a wrong name or a wrong password. */
export const WRONG_CREDENTIALS = 'The name or the password is not right.';

/** Longer passwords are not hashed (hash-password would not have made one this long from a terminal either). */
const MAX_PASSWORD_LENGTH = 1024;

export interface SignInOptions {
  /** Configured users' hashes by name. */
  users: ReadonlyMap<string, PasswordHash>;
  /** What an unknown name is checked against. */
  dummyHash: PasswordHash;
  sessions: SessionStore;
  throttle: SignInThrottle;
  clock: Clock;
  logger: Logger;
  secureCookies: boolean;
}

export interface SignIn {
  /** GET /admin/login: the form, or straight on when already signed in. */
  showForm(request: RoutedRequest, session: AdminSession | undefined): Answer;
  /** POST /admin/login with its read body (the origin check has passed). */
  signIn(request: RoutedRequest, form: AdminForm, previousId: string | undefined): Promise<Answer>;
  /** POST /admin/logout (the session and CSRF checks have passed): the session ends on the server. */
  signOut(session: AdminSession, id: string | undefined): Promise<Answer>;
}

export function createSignIn(options: SignInOptions): SignIn {
  const { users, sessions, throttle, clock, logger } = options;
  return {
    showForm(request, session) {
      const next = safeNextPath(new URLSearchParams(request.query).get('next'));
      if (session) return redirectAnswer(next ?? DEFAULT_NEXT);
      return htmlAnswer(200, <LoginPage next={next} />);
    },

    async signIn(request, form, previousId) {
      const name = form.fields.get('name') ?? '';
      const password = form.fields.get('password') ?? '';
      const next = safeNextPath(form.fields.get('next'));
      const keys = [`ip:${request.clientAddress}`, `name:${name}`];
      const now = clock();
      const waitMs = await throttle.waitMs(keys, now);
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        logger.warn({ event: 'admin_sign_in_throttled', user: users.has(name) ? name : undefined }, 'admin sign-in throttled');
        return htmlAnswer(429, <LoginPage next={next} name={name} problem={tryAgainMessage(now, seconds)} />, { 'retry-after': String(seconds) });
      }
      const stored = users.get(name);
      const matches = await verifyPassword(stored ?? options.dummyHash, password.slice(0, MAX_PASSWORD_LENGTH));
      if (!stored || !matches || password.length > MAX_PASSWORD_LENGTH) {
        await throttle.recordFailure(keys, clock());
        // The attempted name is logged only when it is a user's: a mistyped password in the name field must not land in the log.
        logger.warn({ event: 'admin_sign_in_failed', user: stored ? name : undefined }, 'admin sign-in failed');
        return htmlAnswer(403, <LoginPage next={next} name={name} problem={WRONG_CREDENTIALS} />);
      }
      await throttle.forget(`name:${name}`);
      // A new id at every sign-in, and the old one ended: a planted cookie never becomes a signed-in session.
      await sessions.end(previousId);
      const { id } = await sessions.start(name);
      logger.info({ event: 'admin_sign_in', user: name }, 'admin signed in');
      return redirectAnswer(next ?? DEFAULT_NEXT, { 'set-cookie': sessionCookie(id, options.secureCookies) });
    },

    async signOut(session, id) {
      await sessions.end(id);
      logger.info({ event: 'admin_sign_out', user: session.user }, 'admin signed out');
      return redirectAnswer('/admin/login', { 'set-cookie': clearedSessionCookie(options.secureCookies) });
    },
  };
}

/** "Too many failed sign-ins. Try again in 7 minutes, at 14:05 UTC." */
function tryAgainMessage(now: number, seconds: number): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, at ${at} UTC.`;
}
