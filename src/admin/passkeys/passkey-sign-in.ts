// "Sign in with a passkey" (docs/admin.md "Passkeys"): two routes for people without a session, used by the sign-in
// page's script (browser/passkeys.ts):
//
//   POST /admin/login/passkey/options   authentication options for any passkey of this site (no name needed:
//                                       discoverable credentials), user verification required, and the token that
//                                       carries their challenge (passkey-tokens.ts)
//   POST /admin/login/passkey           token, response (the credential as JSON), next?: verified against the
//                                       stored passkey of that credential id, then signed in like a password and
//                                       its second factor; answers {"location"} with the session's cookies
//
// A passkey counts as both factors. Every attempt takes its place among the failed sign-ins of its address before it
// is checked (the sign-in throttle, as for passwords) and gives it back only when it signs in, so a burst is bounded
// the same way. The counter and the time of use move in one atomic update of the account: an assertion seen before
// (its token made before the passkey's last use) or a counter that did not go up is refused, on every replica.
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import { createRateLimitKey } from '../../forms/rules/rate-limit-key.js';
import type { Account, AuditEvent } from '../accounts/account.js';
import type { Accounts } from '../accounts/accounts.js';
import type { AdminForm, AdminRoute } from '../admin-pages.js';
import { safeNextPath } from '../next-path.js';
import { sessionCookieName, sessionIdOf } from '../session-cookie.js';
import type { FinishOptions } from '../sign-in.js';
import type { SignInThrottle } from '../sign-in-throttle.js';
import { PASSKEY_SIGN_IN_OPTIONS_PATH, PASSKEY_SIGN_IN_PATH } from './passkey-paths.js';
import { createCeremonyTokens, type CeremonyTokens } from './passkey-tokens.js';
import { CEREMONY_TIMEOUT_MS, jsonAnswer, jsonObjectOf, relyingPartyOf, userHandleOf, webAuthn, type StoredPasskey } from './relying-party.js';

/** The one answer for a passkey that does not sign in, whatever the reason. */
export const PASSKEY_REFUSED = 'This passkey did not sign you in. Try again, or sign in with your password.';

export interface PasskeySignInDeps {
  accounts: Accounts;
  /** The sign-in throttle: failures count under the address's key, as for passwords; its device key signs tokens. */
  throttle: SignInThrottle;
  /** Signs an account in (sign-in.tsx `finish`): the session, its cookies, the audit line, the redirect. */
  finish(request: RoutedRequest, account: Account, how: FinishOptions): Promise<Answer>;
  audit(event: AuditEvent): Promise<void>;
  clock: Clock;
  logger: Logger;
  secureCookies: boolean;
  /** IPv6 clients count per network of this many bits ([server] rate_limit_ipv6_prefix); 64 by default. */
  ipv6Prefix?: number;
  /** The tokens; by default signed under a key derived from the throttle's device key. */
  tokens?: CeremonyTokens;
}

type AnonymousRequest = RoutedRequest & { form?: AdminForm };

/** The two anonymous routes of passkey sign-in. */
export function createPasskeySignInRoutes(deps: PasskeySignInDeps): AdminRoute[] {
  const { accounts, throttle, clock, logger } = deps;
  const tokens = deps.tokens ?? createCeremonyTokens(() => throttle.deviceKey());
  const addressKeyOf = createRateLimitKey(deps.ipv6Prefix ?? 64);

  async function options(request: AnonymousRequest): Promise<Answer> {
    const party = relyingPartyOf(request, deps.secureCookies);
    if (!party) return jsonAnswer(400, { problem: 'The request has no usable Host header.' });
    const generated = await webAuthn().generateAuthenticationOptions({ rpID: party.rpID, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });
    const token = await tokens.sign({ purpose: 'sign_in', challenge: generated.challenge, issuedAt: clock(), origin: party.origin });
    return jsonAnswer(200, { options: generated, token });
  }

  async function verify(request: AnonymousRequest): Promise<Answer> {
    const fields = request.form?.fields ?? new URLSearchParams();
    const network = addressKeyOf(request.clientAddress);
    const now = clock();
    // Counted as a failure from here on, before anything is checked: a burst cannot pass the limit.
    const reservation = await throttle.reserve([`ip:${network}`], now);
    if (!reservation.allowed) {
      const seconds = Math.ceil(reservation.waitMs / 1000);
      logger.warn({ event: 'admin_sign_in_throttled', via: 'passkey' }, 'admin sign-in throttled');
      return jsonAnswer(429, { problem: tryAgainMessage(now, seconds) }, { 'retry-after': String(seconds) });
    }
    const outcome = await check(request, fields, now);
    if (!outcome.ok) {
      // The reservation stays: it is this failure.
      logger.warn({ event: 'admin_sign_in_failed', via: 'passkey', user: outcome.user, reason: outcome.reason }, 'admin passkey sign-in failed');
      await deps.audit({ at: now, user: outcome.user, event: 'sign_in_failed', network });
      return jsonAnswer(403, { problem: PASSKEY_REFUSED });
    }
    await throttle.release(reservation.ticket);
    const previousId = sessionIdOf(request.raw.headers.cookie, sessionCookieName(deps.secureCookies));
    const finished = await deps.finish(request, outcome.account, { via: 'passkey', previousId, next: safeNextPath(fields.get('next')) });
    // The script goes on itself: the redirect's place in JSON, with the session's cookies.
    const headers = finished.headers as Record<string, string>;
    const cookies = headers['set-cookie'];
    return jsonAnswer(200, { location: headers.location }, cookies === undefined ? {} : { 'set-cookie': cookies });
  }

  type Checked = { ok: true; account: Account } | { ok: false; user?: string; reason: string };

  /** Whether the request's assertion is a good one of a stored passkey; its counter and time of use moved if so. */
  async function check(request: AnonymousRequest, fields: URLSearchParams, now: number): Promise<Checked> {
    const party = relyingPartyOf(request, deps.secureCookies);
    const claims = await tokens.open(fields.get('token') ?? '', 'sign_in', now);
    if (!party || !claims || claims.origin !== party.origin) return { ok: false, reason: 'token' };
    const response = jsonObjectOf(fields.get('response'));
    const credentialId = response?.id;
    if (!response || typeof credentialId !== 'string' || credentialId === '') return { ok: false, reason: 'response' };
    const found = await findPasskey(credentialId);
    if (!found) return { ok: false, reason: 'unknown_credential' };
    const { account, passkey } = found;
    const user = account.name;
    const userHandle = (response.response as Record<string, unknown> | undefined)?.userHandle;
    if (userHandle !== undefined && userHandle !== null && userHandle !== Buffer.from(userHandleOf(user)).toString('base64url')) {
      return { ok: false, user, reason: 'user_handle' };
    }
    let newCounter: number;
    try {
      const verified = await webAuthn().verifyAuthenticationResponse({
        response: response as unknown as Parameters<ReturnType<typeof webAuthn>['verifyAuthenticationResponse']>[0]['response'],
        expectedChallenge: claims.challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.rpID,
        credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: passkey.transports as never },
        requireUserVerification: true,
      });
      if (!verified.verified) return { ok: false, user, reason: 'signature' };
      newCounter = verified.authenticationInfo.newCounter;
    } catch {
      // A bad signature, origin, challenge, flag or counter: the library says which by throwing.
      return { ok: false, user, reason: 'verification' };
    }
    // In one atomic step: the passkey is still there, this assertion was not used before, the counter went up.
    const updated = await accounts.store.update(user, (current) => {
      const stored = current?.passkeys.find((candidate) => candidate.id === passkey.id) as StoredPasskey | undefined;
      if (!current || !stored) return undefined;
      if ((stored.lastUsedAt ?? 0) >= claims.issuedAt) return undefined;
      if ((newCounter > 0 || stored.counter > 0) && newCounter <= stored.counter) return undefined;
      const used: StoredPasskey = { ...stored, counter: newCounter, lastUsedAt: now };
      return { ...current, passkeys: current.passkeys.map((candidate) => (candidate.id === stored.id ? used : candidate)) };
    });
    if (!updated) return { ok: false, user, reason: 'replayed_or_removed' };
    // The user as they are now (a role change or removal meanwhile is seen).
    const signingIn = await accounts.find(user);
    if (!signingIn) return { ok: false, reason: 'user_gone' };
    return { ok: true, account: signingIn };
  }

  /** The account holding the passkey of `credentialId`, and the passkey. */
  async function findPasskey(credentialId: string): Promise<{ account: Account; passkey: StoredPasskey } | undefined> {
    for (const account of await accounts.list()) {
      const passkey = account.passkeys.find((candidate) => candidate.id === credentialId);
      if (passkey) return { account, passkey };
    }
    return undefined;
  }

  return [
    { path: PASSKEY_SIGN_IN_OPTIONS_PATH, methods: {}, anonymous: { POST: options } },
    { path: PASSKEY_SIGN_IN_PATH, methods: {}, anonymous: { POST: verify } },
  ];
}

/** "Too many failed sign-ins. Try again in 7 minutes, at 14:05 UTC." (the words of the password's answer). */
function tryAgainMessage(now: number, seconds: number): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, at ${at} UTC.`;
}
