// /admin/account/passkeys, for every role (docs/admin.md "Passkeys"): each person sees and changes their own
// passkeys only, whatever the request names.
//
//   GET  /admin/account/passkeys            the person's passkeys and the add form
//   POST /admin/account/passkeys/options    label: registration options (JSON) and the token of their challenge
//   POST /admin/account/passkeys/register   label, token, response: verified, stored, audited (JSON {"location"})
//   POST /admin/account/passkeys/add        label: the add form without the script; asks for the password when it
//                                           is due, then back to the page
//   POST /admin/account/passkeys/rename     id, label
//   POST /admin/account/passkeys/remove     id: asks for the password when due; removed and audited
//
// Adding and removing need the password given within the last 15 minutes (reauth.tsx): the
// JSON routes answer 403 {"confirm": true} otherwise, and the script then sends the add form itself, which asks.
// The challenge of a registration is in a signed token (passkey-tokens.ts) bound to the user and the session.
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import type { AuditEvent, StoredAccount } from '../accounts/account.js';
import type { Accounts } from '../accounts/accounts.js';
import { EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRequest, AdminRoute, AdminSession } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { CONFIRM_AFTER_MS, createPasswordConfirmation, type PasswordAttempts } from '../reauth.js';
import { MessagePage } from '../views/message-page.js';
import { createCeremonyTokens, sessionTagOf, type CeremonyTokens } from './passkey-tokens.js';
import { PASSKEY_ADD_ACTION, PASSKEY_OPTIONS_ACTION, PASSKEY_REGISTER_ACTION, PASSKEY_REMOVE_ACTION, PASSKEY_RENAME_ACTION, PASSKEYS_PATH } from './passkey-paths.js';
import { MAX_LABEL_LENGTH, PasskeysPage } from './passkey-views.js';
import { CEREMONY_TIMEOUT_MS, ipAddressProblemOf, jsonAnswer, jsonObjectOf, relyingPartyOf, RP_NAME, userHandleOf, webAuthn, type StoredPasskey } from './relying-party.js';

/** A person keeps at most this many passkeys. */
export const MAX_PASSKEYS = 20;

export interface PasskeyPagesDeps {
  accounts: Accounts;
  clock: Clock;
  logger: Logger;
  /** `[admin] secure_cookies`: the origin is https then, http otherwise. */
  secureCookies: boolean;
  /** The sign-in throttle's device key (the same on every replica): registration tokens are signed under a key derived from it. */
  deviceKey(): Promise<Buffer>;
  /** Whether `password` is `user`'s (the sign-in's bounded pool of checks). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` as proved now. */
  confirmSession(request: AdminRequest): Promise<void>;
  /** The sign-in throttle: a wrong password asked again counts there, for the user on every page and replica (../reauth.tsx). */
  passwordAttempts: PasswordAttempts;
  /** The network an audit event records: the client address, an IPv6 one as its /64. */
  networkOf(request: RoutedRequest): string;
  /** The tokens; by default signed under a key derived from `deviceKey`. */
  tokens?: CeremonyTokens;
}

const NOTICES: Record<string, string> = {
  added: 'The passkey was added. You can sign in with it now.',
  renamed: 'The passkey was renamed.',
  removed: 'The passkey was removed: it signs nobody in any more.',
  confirmed: 'Your password is confirmed for 15 minutes. Choose "Add a passkey" again to go on.',
};

/** The routes of /admin/account/passkeys, open to every role. */
export function createPasskeyPages(deps: PasskeyPagesDeps): AdminRoute[] {
  const { accounts, clock, logger } = deps;
  const { store } = accounts;
  const tokens = deps.tokens ?? createCeremonyTokens(deps.deviceKey);
  const withConfirmedPassword = createPasswordConfirmation(deps);
  const audit = (request: RoutedRequest, event: Omit<AuditEvent, 'at' | 'network'>) => store.audit({ at: clock(), ...event, network: deps.networkOf(request) });

  const passkeysOf = async (user: string): Promise<StoredPasskey[]> => (await accounts.find(user))?.passkeys ?? [];
  const page = async (request: RoutedRequest, session: AdminSession, status: number, extra: { notice?: string; problem?: string; label?: string } = {}): Promise<Answer> =>
    htmlAnswer(status, <PasskeysPage session={session} passkeys={await passkeysOf(session.user)} ipAddress={ipAddressProblemOf(request, deps.secureCookies)} {...extra} />);
  const noSuchPasskey = (session: AdminSession) =>
    htmlAnswer(404, <MessagePage title="No such passkey" message="You have no passkey of that id (any more)." session={session} link={{ href: PASSKEYS_PATH, label: 'Back to your passkeys' }} />);
  /** Whether the person gave their password within the last 15 minutes. */
  const isFresh = (session: AdminSession) => clock() - session.authAt <= CONFIRM_AFTER_MS;
  const needsPassword = () => jsonAnswer(403, { confirm: true, problem: 'Adding a passkey needs your password again.' });

  /**
   * Changes the stored record of `user`: a user of the configuration without one gets one (their passkeys are kept
   * in the store). Returns what was stored, or undefined when `change` declined.
   */
  const updatePasskeys = (user: string, change: (passkeys: StoredPasskey[]) => StoredPasskey[] | undefined): Promise<StoredAccount | undefined> =>
    store.update(user, (current) => {
      const base: StoredAccount | undefined = current ?? (accounts.isConfigUser(user) ? { name: user, generation: 0, passkeys: [], createdAt: clock() } : undefined);
      if (!base) return undefined;
      const passkeys = change(base.passkeys);
      return passkeys && { ...base, passkeys };
    });

  const list: AdminPage = (request, session) => {
    const query = new URLSearchParams(request.query);
    const key = query.get('notice');
    const label = labelOf(query.get('label'));
    return page(request, session, 200, { notice: key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined, label: label.ok ? label.label : undefined });
  };

  const options: AdminPage = async (request, session) => {
    if (!isFresh(session)) return needsPassword();
    const label = labelOf(request.form!.fields.get('label'));
    if (!label.ok) return jsonAnswer(422, { problem: label.problem });
    const party = relyingPartyOf(request, deps.secureCookies);
    if (!party) return jsonAnswer(400, { problem: 'The request has no usable Host header.' });
    const ipAddress = ipAddressProblemOf(request, deps.secureCookies);
    if (ipAddress) return jsonAnswer(400, { problem: ipAddress.problem });
    const passkeys = await passkeysOf(session.user);
    if (passkeys.length >= MAX_PASSKEYS) return jsonAnswer(422, { problem: `You have ${MAX_PASSKEYS} passkeys, the most one person may have: remove one first.` });
    const generated = await webAuthn().generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: party.rpID,
      userName: session.user,
      userDisplayName: session.user,
      userID: userHandleOf(session.user),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      // The authenticator does not make a second passkey beside one it holds already.
      excludeCredentials: passkeys.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    });
    const token = await tokens.sign({ purpose: 'register', challenge: generated.challenge, issuedAt: clock(), origin: party.origin, user: session.user, session: sessionTagOf(session.csrfToken) });
    return jsonAnswer(200, { options: generated, token });
  };

  const register: AdminPage = async (request, session) => {
    if (!isFresh(session)) return needsPassword();
    const fields = request.form!.fields;
    const label = labelOf(fields.get('label'));
    if (!label.ok) return jsonAnswer(422, { problem: label.problem });
    const party = relyingPartyOf(request, deps.secureCookies);
    const claims = await tokens.open(fields.get('token') ?? '', 'register', clock());
    if (!party || !claims || claims.origin !== party.origin || claims.user !== session.user || claims.session !== sessionTagOf(session.csrfToken)) {
      return jsonAnswer(400, { problem: 'This attempt is out of date. Please try again.' });
    }
    const response = jsonObjectOf(fields.get('response'));
    if (!response) return jsonAnswer(400, { problem: 'The browser sent no passkey.' });
    let credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] };
    try {
      const verified = await webAuthn().verifyRegistrationResponse({
        response: response as unknown as Parameters<ReturnType<typeof webAuthn>['verifyRegistrationResponse']>[0]['response'],
        expectedChallenge: claims.challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.rpID,
        requireUserPresence: true,
        requireUserVerification: true,
      });
      if (!verified.verified) throw new Error('not verified');
      credential = verified.registrationInfo.credential;
    } catch {
      logger.warn({ event: 'admin_passkey_not_added', user: session.user, reason: 'verification' }, 'passkey not added');
      return jsonAnswer(400, { problem: 'The passkey could not be verified. Nothing was added.' });
    }
    // A passkey that cannot be found without a name cannot sign in from the sign-in page.
    const credProps = (response.clientExtensionResults as { credProps?: { rk?: unknown } } | undefined)?.credProps;
    if (credProps?.rk === false) {
      return jsonAnswer(422, { problem: 'This authenticator did not keep the passkey on itself, so it could not sign in without a name. Nothing was added.' });
    }
    const taken = (await accounts.list()).some((account) => account.passkeys.some((passkey) => passkey.id === credential.id));
    if (taken) return jsonAnswer(409, { problem: 'This passkey is registered already.' });
    const passkey: StoredPasskey = {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      label: label.label,
      ...(credential.transports && credential.transports.length > 0 ? { transports: [...credential.transports] } : {}),
      createdAt: clock(),
    };
    let refusal: string | undefined;
    const stored = await updatePasskeys(session.user, (passkeys) => {
      if (passkeys.some((existing) => existing.id === passkey.id)) refusal = 'This passkey is registered already.';
      else if (passkeys.length >= MAX_PASSKEYS) refusal = `You have ${MAX_PASSKEYS} passkeys, the most one person may have: remove one first.`;
      return refusal ? undefined : [...passkeys, passkey];
    });
    if (!stored) return jsonAnswer(409, { problem: refusal ?? 'Your account is gone.' });
    await audit(request, { user: session.user, event: 'passkey_added', subject: passkey.label });
    logger.info({ event: 'admin_passkey_added', user: session.user }, 'passkey added');
    return jsonAnswer(200, { location: `${PASSKEYS_PATH}?notice=added` });
  };

  /** The add form sent without the script, or by it when the password is due: asks for it, then back to the page. */
  const add: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const label = labelOf(request.form!.fields.get('label'));
      return redirectAnswer(`${PASSKEYS_PATH}?notice=confirmed${label.ok ? `&label=${encodeURIComponent(label.label)}` : ''}`);
    });

  const rename: AdminPage = async (request, session) => {
    const fields = request.form!.fields;
    const id = fields.get('id') ?? '';
    const label = labelOf(fields.get('label'));
    if (!label.ok) return page(request, session, 422, { problem: label.problem });
    let found = false;
    const stored = await updatePasskeys(session.user, (passkeys) => {
      found = passkeys.some((passkey) => passkey.id === id);
      return found ? passkeys.map((passkey) => (passkey.id === id ? { ...passkey, label: label.label } : passkey)) : undefined;
    });
    if (!stored) return noSuchPasskey(session);
    logger.info({ event: 'admin_passkey_renamed', user: session.user }, 'passkey renamed');
    return redirectAnswer(`${PASSKEYS_PATH}?notice=renamed`);
  };

  const remove: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'account', async () => {
      const id = request.form!.fields.get('id') ?? '';
      let removed: StoredPasskey | undefined;
      const stored = await updatePasskeys(session.user, (passkeys) => {
        removed = passkeys.find((passkey) => passkey.id === id);
        return removed ? passkeys.filter((passkey) => passkey.id !== id) : undefined;
      });
      if (!stored || !removed) return noSuchPasskey(session);
      await audit(request, { user: session.user, event: 'passkey_removed', subject: removed.label });
      logger.info({ event: 'admin_passkey_removed', user: session.user }, 'passkey removed');
      return redirectAnswer(`${PASSKEYS_PATH}?notice=removed`);
    });

  return [
    { path: PASSKEYS_PATH, methods: { GET: list }, roles: EVERY_ROLE },
    { path: PASSKEY_OPTIONS_ACTION, methods: { POST: options }, roles: EVERY_ROLE },
    { path: PASSKEY_REGISTER_ACTION, methods: { POST: register }, roles: EVERY_ROLE },
    { path: PASSKEY_ADD_ACTION, methods: { POST: add }, roles: EVERY_ROLE },
    { path: PASSKEY_RENAME_ACTION, methods: { POST: rename }, roles: EVERY_ROLE },
    { path: PASSKEY_REMOVE_ACTION, methods: { POST: remove }, roles: EVERY_ROLE },
  ];
}

/** A passkey's name: one line of 1 to 100 characters, trimmed. */
function labelOf(value: string | null): { ok: true; label: string } | { ok: false; problem: string } {
  const label = (value ?? '').trim();
  if (label === '') return { ok: false, problem: 'Give the passkey a name, such as "Laptop".' };
  if (label.length > MAX_LABEL_LENGTH) return { ok: false, problem: `A passkey's name is at most ${MAX_LABEL_LENGTH} characters.` };
  if (/[\u0000-\u001f\u007f]/.test(label)) return { ok: false, problem: "A passkey's name is one line of text." };
  return { ok: true, label };
}
