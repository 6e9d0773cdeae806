// The second step of signing in with TOTP (docs/admin.md "Your account"). A right password of a user with a TOTP
// factor signs nobody in: the answer is a page asking for the code, carrying a pending sign-in (the name, the user's
// generation and an expiry 5 minutes on, under an HMAC with a key derived from the throttle's device key, so every
// replica can check it and nobody can make one). POST /admin/login/second-factor checks it, then the code:
//
//   - every attempt takes its place among the sign-in failures first (`throttle.reserve`, the address's key and the
//     name's, or the remembered browser's instead), so at most 5 wrong codes count in 15 minutes;
//   - a 6-digit code is right within one 30-second step either side of now, and only for a step after the last
//     one accepted, which is stored with the factor in the same atomic update (a code is never taken twice);
//   - anything else is read as a recovery code: right when its SHA-256 is among the unused ones, which it is
//     removed from in the same atomic update (so of two uses at once, one wins);
//   - a pending sign-in is used once: the update that takes a code also refuses a pending sign-in that does not
//     expire after the last one completed, and stores its expiry as spent, so of a burst of posts with one pending
//     sign-in and right codes, exactly one signs in, and a copy of the page's form is worthless afterwards;
//
// and a right one signs in through sign-in's `finish` (via `totp` or `recovery_code`).
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import type { Account, AuditEvent, StoredAccount } from '../accounts/account.js';
import type { AdminForm } from '../form-body.js';
import { safeNextPath } from '../next-path.js';
import { htmlAnswer } from '../render.js';
import type { SignInThrottle } from '../sign-in-throttle.js';
import { LoginPage } from '../views/login-page.js';
import { SecondFactorPage } from './second-factor-page.js';
import { PENDING_SIGN_IN_MS, pendingSignInToken, readPendingSignIn } from './signed-tokens.js';
import { acceptTotp, isPendingSpent, isTotpCode, normalizeRecoveryCode, recoveryCodeHashOf, type TotpState } from './totp.js';

export { SECOND_FACTOR_PATH } from './second-factor-page.js';

export const WRONG_CODE = 'The code is not right.';
export const SIGN_IN_AGAIN = 'This sign-in took longer than 5 minutes or has ended. Sign in again.';

/** How sign-in's `finish` is asked to end a sign-in (its FinishOptions, as far as this step needs). */
export interface SecondFactorFinish {
  previousId: string | undefined;
  next?: string;
  deviceTokens?: readonly string[];
  via: 'totp' | 'recovery_code';
}

export interface SecondFactorOptions {
  findAccount(name: string): Promise<Account | undefined>;
  /** The account store's atomic update (AccountStore.update). */
  updateAccount(name: string, change: (current: StoredAccount | undefined) => StoredAccount | undefined): Promise<StoredAccount | undefined>;
  throttle: SignInThrottle;
  clock: Clock;
  logger: Logger;
  audit(event: AuditEvent): Promise<void>;
  /** The network of a client address (an IPv6 one as its /64), as sign-in counts it. */
  addressKeyOf(address: string): string;
  /**
   * The throttle's keys for an attempt of `account` from `request` (as sign-in chooses them), the keys a success
   * forgets, and the request's device tokens.
   */
  keysOf(request: RoutedRequest, account: Account): { keys: string[]; forget: string[]; tokens: string[] };
  /** Signs the account in (sign-in's `finish`). */
  finish(request: RoutedRequest, account: Account, how: SecondFactorFinish): Promise<Answer>;
}

export interface SecondFactor {
  /** After the right password of `account`, which has TOTP: the page asking for the code. */
  ask(account: Account, next: string | undefined): Promise<Answer>;
  /** POST /admin/login/second-factor with its read body (the origin check has passed). */
  verify(request: RoutedRequest, form: AdminForm, previousId: string | undefined): Promise<Answer>;
}

export function createSecondFactor(options: SecondFactorOptions): SecondFactor {
  const { throttle, clock, logger } = options;

  return {
    async ask(account, next) {
      const pending = pendingSignInToken(await throttle.deviceKey(), { name: account.name, generation: account.generation, expiresAt: clock() + PENDING_SIGN_IN_MS });
      logger.info({ event: 'admin_second_factor_asked', user: account.name }, 'admin sign-in: second factor asked');
      return htmlAnswer(200, <SecondFactorPage pending={pending} next={next} />);
    },

    async verify(request, form, previousId) {
      const token = form.fields.get('pending') ?? '';
      const code = (form.fields.get('code') ?? '').trim();
      const next = safeNextPath(form.fields.get('next'));
      const now = clock();
      const pending = readPendingSignIn(await throttle.deviceKey(), token, now);
      const account = pending && (await options.findAccount(pending.name));
      const signInAgain = () => htmlAnswer(403, <LoginPage next={next} name={pending?.name} problem={SIGN_IN_AGAIN} />);
      if (!pending || !account || account.generation !== pending.generation || !account.totp || isPendingSpent(account.totp, pending.expiresAt)) {
        return signInAgain();
      }
      const { name } = account;
      const network = options.addressKeyOf(request.clientAddress);
      const { keys, forget, tokens } = options.keysOf(request, account);
      // The attempt counts as a failure from here on, before its code is checked: a burst cannot pass the limit.
      const reservation = await throttle.reserve(keys, now);
      if (!reservation.allowed) {
        const seconds = Math.ceil(reservation.waitMs / 1000);
        logger.warn({ event: 'admin_sign_in_throttled', user: name, step: 'second_factor' }, 'admin sign-in throttled');
        return htmlAnswer(429, <SecondFactorPage pending={token} next={next} problem={tryAgainMessage(now, seconds)} />, { 'retry-after': String(seconds) });
      }
      // Set when the pending sign-in turns out spent inside the update: no code was checked.
      let spent = false;
      /** The factor of `current` when it is still this pending sign-in's to complete. */
      const unspentFactor = (current: StoredAccount | undefined): TotpState | undefined => {
        if (current?.totp === undefined || current.generation !== pending.generation) return undefined;
        spent = isPendingSpent(current.totp, pending.expiresAt);
        return spent ? undefined : current.totp;
      };
      const spend = (totp: TotpState): TotpState => ({ ...totp, pendingSpentUntil: pending.expiresAt });
      let via: 'totp' | 'recovery_code' | undefined;
      if (isTotpCode(code)) {
        const accepted = await options.updateAccount(name, (current) => {
          const factor = unspentFactor(current);
          const totp = factor && acceptTotp(factor, code, now);
          return totp && { ...current!, totp: spend(totp) };
        });
        if (accepted) via = 'totp';
      } else if (normalizeRecoveryCode(code) !== undefined) {
        const hash = recoveryCodeHashOf(code);
        const used = await options.updateAccount(name, (current) => {
          const factor = unspentFactor(current);
          if (!factor?.recoveryCodeHashes.includes(hash)) return undefined;
          return { ...current!, totp: spend({ ...factor, recoveryCodeHashes: factor.recoveryCodeHashes.filter((other) => other !== hash) }) };
        });
        if (used) via = 'recovery_code';
      }
      if (spent) {
        // Another post of the same pending sign-in completed it: this one checked nothing and is no failure.
        await throttle.release(reservation.ticket);
        logger.warn({ event: 'admin_second_factor_spent', user: name }, 'admin sign-in: pending sign-in used again');
        return signInAgain();
      }
      if (!via) {
        // The reservation stays: it is this failure.
        logger.warn({ event: 'admin_second_factor_failed', user: name }, 'admin sign-in: second factor not right');
        await options.audit({ at: now, user: name, event: 'second_factor_failed', network });
        return htmlAnswer(403, <SecondFactorPage pending={token} next={next} problem={WRONG_CODE} />);
      }
      await throttle.release(reservation.ticket);
      for (const key of forget) await throttle.forget(key);
      if (via === 'recovery_code') {
        logger.info({ event: 'admin_recovery_code_used', user: name }, 'admin sign-in with a recovery code');
        await options.audit({ at: now, user: name, event: 'recovery_code_used', network });
      }
      return options.finish(request, account, { previousId, next, deviceTokens: tokens, via });
    },
  };
}

/** "Too many failed sign-ins. Try again in 7 minutes, at 14:05 UTC." */
function tryAgainMessage(now: number, seconds: number): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, at ${at} UTC.`;
}
