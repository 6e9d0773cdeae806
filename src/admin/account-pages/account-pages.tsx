// /admin/account (docs/admin.md "Your account: password, second factor, signing out everywhere"), for every role:
//
//   GET  /admin/account                      the person's name and role, and the forms below
//   POST /admin/account/password             current_password, new_password, new_password_again: a new scrypt hash;
//                                            the generation moves on (every session ends), then this browser gets
//                                            a new session at once (303 with its cookie)
//   POST /admin/account/sign-out-everywhere  the generation moves on: every session ends, this one too (303 to sign-in)
//   POST /admin/account/forget-devices       no browser is remembered for the name any more (../devices.ts)
//   POST /admin/account/totp/setup           a new secret, shown with its QR code, and the form for a code from it
//   POST /admin/account/totp/enable          pending, code: a right code stores the factor and shows 10 recovery
//                                            codes once (only their SHA-256 is kept)
//   POST /admin/account/totp/disable         removes the factor
//
// A config user's password is the configuration's: no form. Every change but the password asks for the password
// again when it was given more than 15 minutes ago (../reauth.tsx); the password form asks for the current one
// every time, counted with those. The secret being set up is not kept on the server: it travels in a hidden field
// with an HMAC over it, the user, the session's CSRF token and an expiry (second-factor/signed-tokens.ts), so that
// any replica can finish the set-up and no other secret can be slipped in. Each change is audited with the network.
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import { MIN_PASSWORD_LENGTH } from '../../kit/password-hash.js';
import type { Clock, RandomBytes } from '../../ports.js';
import type { AuditEvent, StoredAccount } from '../accounts/account.js';
import type { Accounts } from '../accounts/accounts.js';
import type { AdminPage, AdminRequest, AdminRoute, AdminSession } from '../admin-pages.js';
import { createPasswordConfirmation, type PasswordAttempts } from '../reauth.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { PENDING_TOTP_MS, pendingTotpToken, readPendingTotp } from '../second-factor/signed-tokens.js';
import { createRecoveryCodes, createTotpSecret, recoveryCodeHashOf, totpStepOf, totpUriOf, type TotpState } from '../second-factor/totp.js';
import { clearedSessionCookie } from '../session-cookie.js';
import { MessagePage } from '../views/message-page.js';
import {
  ACCOUNT_PATH,
  AccountPage,
  FORGET_DEVICES_ACTION,
  PASSWORD_ACTION,
  RecoveryCodesPage,
  SIGN_OUT_EVERYWHERE_ACTION,
  TOTP_DISABLE_ACTION,
  TOTP_ENABLE_ACTION,
  TOTP_SETUP_ACTION,
  TotpSetupPage,
} from './account-views.js';

export { ACCOUNT_PATH } from './account-views.js';

const MAX_PASSWORD_LENGTH = 1024;

export interface AccountPagesDeps {
  accounts: Accounts;
  clock: Clock;
  logger: Logger;
  randomBytes: RandomBytes;
  /** Whether `password` is `user`'s (on the sign-in's bounded pool of checks). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` (its cookie's id) as proved now: the session store's `confirm(id)`. */
  confirmSession(request: AdminRequest): Promise<void>;
  /** The sign-in throttle: a wrong password asked again counts there, for the user on every page and replica (../reauth.tsx). */
  passwordAttempts: PasswordAttempts;
  /** Ends the session of `request` and starts one in `user`'s generation now: its Set-Cookie (AdminTools.renewSession). */
  renewSession(request: AdminRequest, user: string): Promise<Record<string, string> | undefined>;
  /** The stored hash of a new password (`scrypt$...`). */
  hashPassword(password: string): Promise<string>;
  /** The network an audit event records: the client address, an IPv6 one as its /64. */
  networkOf(request: RoutedRequest): string;
  /** The key shared by every replica that the pending set-up's HMAC key is derived from (the throttle's device key). */
  sharedKey(): Promise<Buffer>;
  /** The site's title or host, in the name an authenticator app shows. */
  siteName?: string;
  /** `[admin] secure_cookies`: the cookie cleared by "Sign out everywhere". */
  secureCookies: boolean;
}

const NOTICES: Record<string, string> = {
  password_changed: 'Your password was changed. Every other session of yours has ended; you are still signed in here.',
  totp_disabled: 'The authenticator app is off: signing in asks for your password only.',
  totp_on: 'An authenticator app is on already. Turn it off first to set up another.',
  devices_forgotten: 'No browser is remembered for your name any more: each one counts as new at its next sign-in.',
  second_factor_required: 'Your role needs a second factor: set up an authenticator app (or a passkey) to open the other pages.',
};

export function createAccountPages(deps: AccountPagesDeps): AdminRoute[] {
  const { accounts, clock, logger } = deps;
  const { store } = accounts;
  const withConfirmedPassword = createPasswordConfirmation(deps);

  const audit = (request: RoutedRequest, event: Omit<AuditEvent, 'at' | 'network'>) => store.audit({ at: clock(), ...event, network: deps.networkOf(request) });

  /** `change` applied to the stored record of `name`: a config user's is made when there is none yet. */
  const updateOwn = (name: string, change: (current: StoredAccount) => StoredAccount | undefined) =>
    store.update(name, (current) => {
      if (current) return accounts.isConfigUser(name) || (current.role && current.passwordHash) ? change(current) : undefined;
      return accounts.isConfigUser(name) ? change({ name, generation: 0, passkeys: [], createdAt: clock() }) : undefined;
    });

  const gone = (session: AdminSession) =>
    htmlAnswer(404, <MessagePage title="No such user" message="Your user does not exist any more." session={session} link={{ href: '/admin/login', label: 'Sign in' }} />);

  const accountPage = async (session: AdminSession, status: number, extra: { notice?: string; problem?: string } = {}): Promise<Answer> => {
    const account = await accounts.find(session.user);
    return account ? htmlAnswer(status, <AccountPage session={session} account={account} {...extra} />) : gone(session);
  };

  const show: AdminPage = (request, session) => {
    const key = new URLSearchParams(request.query).get('notice');
    return accountPage(session, 200, { notice: key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined });
  };

  const changePassword: AdminPage = async (request, session) => {
    const fields = request.form!.fields;
    const account = await accounts.find(session.user);
    if (!account) return gone(session);
    if (account.fromConfig) return accountPage(session, 422, { problem: 'Your password is set in the configuration: change it there.' });
    const password = fields.get('new_password') ?? '';
    const problem =
      password.length < MIN_PASSWORD_LENGTH
        ? `The new password must be at least ${MIN_PASSWORD_LENGTH} characters long.`
        : password.length > MAX_PASSWORD_LENGTH
          ? `The new password must be at most ${MAX_PASSWORD_LENGTH} characters long.`
          : password !== (fields.get('new_password_again') ?? '')
            ? 'The two new passwords are not the same.'
            : undefined;
    if (problem) return accountPage(session, 422, { problem });
    // The current password, every time: it is this change's confirmation, counted with the page that asks again.
    const checked = await withConfirmedPassword.check(request, session, fields.get('current_password') ?? '');
    if (!checked.ok) {
      const answer = await accountPage(session, checked.status, { problem: checked.status === 403 ? 'The current password is not right. Nothing was changed.' : checked.problem });
      return { ...answer, headers: { ...(answer.headers as Record<string, string>), ...checked.headers } };
    }
    const passwordHash = await deps.hashPassword(password);
    const changed = await store.update(session.user, (current) =>
      current?.role && current.passwordHash ? { ...current, passwordHash, generation: current.generation + 1 } : undefined,
    );
    if (!changed) return gone(session);
    await audit(request, { user: session.user, event: 'password_changed' });
    logger.info({ event: 'admin_password_changed', user: session.user }, 'admin password changed');
    // Every session of the user ended with the generation; this browser gets a new one in the new generation.
    const cookie = await deps.renewSession(request, session.user);
    return cookie ? redirectAnswer(`${ACCOUNT_PATH}?notice=password_changed`, cookie) : redirectAnswer('/admin/login');
  };

  const signOutEverywhere: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const changed = await updateOwn(session.user, (current) => ({ ...current, generation: current.generation + 1 }));
      if (!changed) return gone(session);
      await audit(request, { user: session.user, event: 'signed_out_everywhere' });
      logger.info({ event: 'admin_signed_out_everywhere', user: session.user }, 'admin signed out everywhere');
      return redirectAnswer('/admin/login', { 'set-cookie': clearedSessionCookie(deps.secureCookies) });
    });

  const forgetDevices: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const changed = await updateOwn(session.user, (current) => {
        const { devices: _forgotten, ...rest } = current;
        return rest;
      });
      if (!changed) return gone(session);
      await audit(request, { user: session.user, event: 'devices_forgotten' });
      logger.info({ event: 'admin_devices_forgotten', user: session.user }, 'admin remembered devices forgotten');
      return redirectAnswer(`${ACCOUNT_PATH}?notice=devices_forgotten`);
    });

  const setupPage = async (session: AdminSession, status: number, secret: string, expiresAt: number, problem?: string): Promise<Answer> => {
    const pending = pendingTotpToken(await deps.sharedKey(), session, { secret, expiresAt });
    const uri = totpUriOf(secret, session.user, deps.siteName);
    return htmlAnswer(status, <TotpSetupPage session={session} secret={secret} uri={uri} pending={pending} problem={problem} />);
  };

  const setUp: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const account = await accounts.find(session.user);
      if (!account) return gone(session);
      if (account.totp) return redirectAnswer(`${ACCOUNT_PATH}?notice=totp_on`);
      return setupPage(session, 200, createTotpSecret(deps.randomBytes), clock() + PENDING_TOTP_MS);
    });

  const enable: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const fields = request.form!.fields;
      const now = clock();
      const pending = readPendingTotp(await deps.sharedKey(), session, fields.get('pending') ?? '', now);
      if (!pending) return accountPage(session, 422, { problem: 'The set-up was not finished within 15 minutes, or its form was changed. Start it again.' });
      const step = totpStepOf(pending.secret, fields.get('code') ?? '', now);
      if (step === undefined) {
        return setupPage(session, 422, pending.secret, pending.expiresAt, 'The code is not right. Type the code the app shows now (it changes every 30 seconds).');
      }
      const codes = createRecoveryCodes(deps.randomBytes);
      const totp: TotpState = { secret: pending.secret, recoveryCodeHashes: codes.map(recoveryCodeHashOf), enabledAt: now, lastStep: step };
      let already = false;
      const changed = await updateOwn(session.user, (current) => {
        already = current.totp !== undefined;
        return already ? undefined : { ...current, totp };
      });
      if (already) return redirectAnswer(`${ACCOUNT_PATH}?notice=totp_on`);
      if (!changed) return gone(session);
      await audit(request, { user: session.user, event: 'totp_enabled' });
      logger.info({ event: 'admin_totp_enabled', user: session.user }, 'admin TOTP turned on');
      // The codes are in this answer only: never in a redirect's URL, never stored but as hashes.
      return htmlAnswer(200, <RecoveryCodesPage session={session} codes={codes} />);
    });

  const disable: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      let had = false;
      await updateOwn(session.user, (current) => {
        had = current.totp !== undefined;
        if (!had) return undefined;
        const { totp: _removed, ...rest } = current;
        return rest;
      });
      if (had) {
        await audit(request, { user: session.user, event: 'totp_disabled' });
        logger.info({ event: 'admin_totp_disabled', user: session.user }, 'admin TOTP turned off');
      }
      return redirectAnswer(`${ACCOUNT_PATH}?notice=totp_disabled`);
    });

  return [
    { path: ACCOUNT_PATH, methods: { GET: show } },
    { path: PASSWORD_ACTION, methods: { POST: changePassword } },
    { path: SIGN_OUT_EVERYWHERE_ACTION, methods: { POST: signOutEverywhere } },
    { path: FORGET_DEVICES_ACTION, methods: { POST: forgetDevices } },
    { path: TOTP_SETUP_ACTION, methods: { POST: setUp } },
    { path: TOTP_ENABLE_ACTION, methods: { POST: enable } },
    { path: TOTP_DISABLE_ACTION, methods: { POST: disable } },
  ];
}

