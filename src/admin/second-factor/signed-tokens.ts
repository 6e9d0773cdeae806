// Short-lived tokens the browser carries in a hidden field and the server checks by their HMAC, so that nothing
// is kept in memory between two requests (any replica can answer the second) and nothing in them can be changed:
//
//   - the pending sign-in: a right password of a user with TOTP, waiting for the code (5 minutes);
//   - the pending TOTP set-up: the secret shown to the person, waiting for a code from it (15 minutes), bound to
//     the session that asked (its CSRF token), so it cannot be swapped for another secret or posted by another
//     session.
//
// Their keys are derived from the throttle's device key (shared by every replica) with a label each: a MAC made for
// one purpose (or a device cookie's) never passes as another's.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A pending sign-in lasts this long after the right password. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;
/** A TOTP set-up can be finished this long after its secret was shown. */
export const PENDING_TOTP_MS = 15 * 60_000;

const SIGN_IN_LABEL = 'postbox admin pending sign-in v1';
const TOTP_SETUP_LABEL = 'postbox admin pending totp setup v1';
const MAX_TOKEN_LENGTH = 1024;

/** The key for one purpose, derived from the shared key. */
export function derivedKey(shared: Buffer, label: string): Buffer {
  return createHmac('sha256', shared).update(label, 'utf8').digest();
}

/** A pending sign-in: who gave the right password, in which generation, until when. */
export interface PendingSignIn {
  name: string;
  generation: number;
  expiresAt: number;
}

/** `<name, base64url>.<generation>.<expiry>.<MAC>`. */
export function pendingSignInToken(shared: Buffer, pending: PendingSignIn): string {
  const name = Buffer.from(pending.name, 'utf8').toString('base64url');
  const body = `${name}.${pending.generation}.${pending.expiresAt}`;
  return `${body}.${macOf(derivedKey(shared, SIGN_IN_LABEL), body)}`;
}

/** The pending sign-in of `token` when its MAC is right and it has not expired at `now`; else undefined. */
export function readPendingSignIn(shared: Buffer, token: string, now: number): PendingSignIn | undefined {
  const parts = splitSigned(token, 4, derivedKey(shared, SIGN_IN_LABEL));
  if (!parts) return undefined;
  const [name, generation, expiresAt] = [Buffer.from(parts[0]!, 'base64url').toString('utf8'), Number(parts[1]), Number(parts[2])];
  if (!Number.isSafeInteger(generation) || !Number.isSafeInteger(expiresAt)) return undefined;
  if (now >= expiresAt || expiresAt - now > PENDING_SIGN_IN_MS) return undefined;
  return { name, generation, expiresAt };
}

/** A TOTP secret shown to the person of one session, waiting for a code from it. */
export interface PendingTotp {
  secret: string;
  expiresAt: number;
}

/** `<secret>.<expiry>.<MAC over the user, the session's CSRF token, the secret and the expiry>`. */
export function pendingTotpToken(shared: Buffer, session: { user: string; csrfToken: string }, pending: PendingTotp): string {
  const body = `${pending.secret}.${pending.expiresAt}`;
  return `${body}.${macOf(derivedKey(shared, TOTP_SETUP_LABEL), `${bound(session)}.${body}`)}`;
}

/** The secret of `token` when it was made for this session and user and has not expired; else undefined. */
export function readPendingTotp(shared: Buffer, session: { user: string; csrfToken: string }, token: string, now: number): PendingTotp | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > MAX_TOKEN_LENGTH) return undefined;
  const [secret, expiry, mac] = parts as [string, string, string];
  if (!/^[A-Z2-7]{16,128}$/.test(secret) || !/^\d{1,16}$/.test(expiry)) return undefined;
  if (!sameMac(mac, macOf(derivedKey(shared, TOTP_SETUP_LABEL), `${bound(session)}.${secret}.${expiry}`))) return undefined;
  const expiresAt = Number(expiry);
  if (now >= expiresAt || expiresAt - now > PENDING_TOTP_MS) return undefined;
  return { secret, expiresAt };
}

function bound(session: { user: string; csrfToken: string }): string {
  return `${Buffer.from(session.user, 'utf8').toString('base64url')}.${session.csrfToken}`;
}

function macOf(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body, 'utf8').digest('base64url');
}

function sameMac(sent: string, expected: string): boolean {
  const [a, b] = [Buffer.from(sent), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The fields of a `count`-part token whose last part is the right MAC of the others; else undefined. */
function splitSigned(token: string, count: number, key: Buffer): string[] | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== count) return undefined;
  const mac = parts.pop()!;
  return sameMac(mac, macOf(key, parts.join('.'))) ? parts : undefined;
}
