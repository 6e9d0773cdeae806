// The password asked again before a sensitive change (docs/admin.md "Users, invitations and the audit log" and
// "Your account"): when the session's person last gave their password more than 15 minutes ago, a change is
// answered with a page that asks for it and posts the same action again, with the same fields. A right password
// moves the session's `authAt` to now (so the next changes go through without asking) and the change is done; a
// wrong one changes nothing. Wrong passwords count in the sign-in throttle under `reauth:<user>`, one count for every
// page that asks and every replica: a check takes its place among them before the password is checked (so a burst
// cannot pass the limit), and after 5 within 15 minutes the next is answered 429 unchecked. `check` is the same count
// for a form that asks for the current password itself (a new password).
import type { Answer } from '../http/answer.js';
import type { Logger } from '../kit/log.js';
import { PasswordCheckBusyError } from '../kit/password-check-pool.js';
import type { Clock } from '../ports.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import type { AdminRequest, AdminSession } from './admin-pages.js';
import { htmlAnswer } from './render.js';
import { CSRF_FIELD, CsrfField } from './views/csrf-field.js';
import { Layout, type AdminSection } from './views/layout.js';

/** A change is allowed without asking again this long after the password was last given. */
export const CONFIRM_AFTER_MS = 15 * 60_000;

/** The field of the password asked again. */
export const PASSWORD_FIELD = 'password';

const MAX_PASSWORD_LENGTH = 1024;

/** What the password asked again counts its wrong ones in: the sign-in throttle (sign-in-throttle.ts). */
export type PasswordAttempts = Pick<SignInThrottle, 'reserve' | 'release' | 'forget'>;

/** The throttle's key of the passwords asked again of `user`. */
export function reauthKeyOf(user: string): string {
  return `reauth:${user}`;
}

/** Where "Cancel" leads from the page that asks, per section. */
const CANCEL_HREFS: Partial<Record<AdminSection, string>> = { users: '/admin/users', account: '/admin/account', campaigns: '/admin/campaigns' };

export interface PasswordConfirmationDeps {
  clock: Clock;
  logger: Logger;
  /** Whether `password` is `user`'s (on the sign-in's bounded pool; rejects with PasswordCheckBusyError when full). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` as proved now (the session store's confirm of the cookie's id). */
  confirmSession(request: AdminRequest): Promise<void>;
  /** Where wrong passwords are counted: the admin's sign-in throttle, shared by every page group and replica. */
  passwordAttempts: PasswordAttempts;
}

/** What checking a password given in a form found: right, wrong, or not checked (too many wrong ones, or busy). */
export type PasswordCheck = { ok: true } | { ok: false; status: 403 | 429; problem: string; headers?: Record<string, string> };

/** Runs `change` when the password was given recently, or once it was given again now. */
export interface WithConfirmedPassword {
  (request: AdminRequest, session: AdminSession, section: AdminSection, change: () => Promise<Answer>): Promise<Answer>;
  /**
   * Checks `password` as the person's own, counted with the wrong passwords given to the page that asks; a right
   * one moves the session's `authAt` to now.
   */
  check(request: AdminRequest, session: AdminSession, password: string): Promise<PasswordCheck>;
}

export function createPasswordConfirmation(deps: PasswordConfirmationDeps): WithConfirmedPassword {
  const { clock, logger, passwordAttempts } = deps;

  const check = async (request: AdminRequest, session: AdminSession, password: string): Promise<PasswordCheck> => {
    const key = reauthKeyOf(session.user);
    // The check counts as a wrong password from here on, before the password is checked: a burst cannot pass the limit.
    const reservation = await passwordAttempts.reserve([key], clock());
    if (!reservation.allowed) {
      const seconds = Math.max(1, Math.ceil(reservation.waitMs / 1000));
      logger.warn({ event: 'admin_password_confirm_throttled', user: session.user }, 'admin password asked again: throttled');
      return { ok: false, status: 429, problem: `Too many wrong passwords. Try again in ${Math.ceil(seconds / 60)} minutes.`, headers: { 'retry-after': String(seconds) } };
    }
    let matches: boolean;
    try {
      matches = password.length <= MAX_PASSWORD_LENGTH && (await deps.verifyPassword(session.user, password));
    } catch (error) {
      // Not checked: not a wrong password.
      await passwordAttempts.release(reservation.ticket);
      if (!(error instanceof PasswordCheckBusyError)) throw error;
      return { ok: false, status: 429, problem: 'Too many password checks at once. Try again in a moment.', headers: { 'retry-after': '1' } };
    }
    if (!matches) {
      // The reservation stays: it is this wrong password.
      logger.warn({ event: 'admin_password_confirm_failed', user: session.user }, 'admin password asked again: wrong');
      return { ok: false, status: 403, problem: 'The password is not right. Nothing was changed.' };
    }
    await passwordAttempts.release(reservation.ticket);
    await passwordAttempts.forget(key);
    await deps.confirmSession(request);
    return { ok: true };
  };

  const withConfirmedPassword = async (request: AdminRequest, session: AdminSession, section: AdminSection, change: () => Promise<Answer>): Promise<Answer> => {
    if (clock() - session.authAt <= CONFIRM_AFTER_MS) return change();
    const fields = request.form?.fields ?? new URLSearchParams();
    const password = fields.get(PASSWORD_FIELD);
    const ask = (status: number, problem?: string, headers?: Record<string, string>) =>
      htmlAnswer(status, <ConfirmPasswordPage session={session} section={section} action={request.path} fields={fields} problem={problem} />, headers);
    if (password === null || password === '') return ask(200);
    const checked = await check(request, session, password);
    return checked.ok ? change() : ask(checked.status, checked.problem, checked.headers);
  };
  return Object.assign(withConfirmedPassword, { check });
}

interface ConfirmPasswordPageProps {
  session: AdminSession;
  section: AdminSection;
  /** The path the change was posted to; the form posts there again. */
  action: string;
  /** The change's fields, posted again as they were. */
  fields: URLSearchParams;
  problem?: string;
}

export function ConfirmPasswordPage({ session, section, action, fields, problem }: ConfirmPasswordPageProps) {
  const carried = [...fields].filter(([name]) => name !== CSRF_FIELD && name !== PASSWORD_FIELD);
  return (
    <Layout title="Confirm your password" session={session} section={section}>
      <h1>Confirm your password</h1>
      {problem && (
        <p class="admin-problem" role="alert">
          {problem}
        </p>
      )}
      <p>This change needs your password again: you last gave it more than 15 minutes ago.</p>
      <form method="post" action={action} class="admin-form">
        <CsrfField session={session} />
        {carried.map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <p>
          <label for="confirm-password">Password of {session.user}</label>
          <input id="confirm-password" name={PASSWORD_FIELD} type="password" autocomplete="current-password" required autofocus />
        </p>
        <p>
          <button type="submit">Confirm and continue</button>
        </p>
      </form>
      <p>
        <a href={CANCEL_HREFS[section] ?? '/admin'}>Cancel</a>
      </p>
    </Layout>
  );
}
