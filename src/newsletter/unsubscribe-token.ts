// Unsubscribe tokens (docs/newsletter.md "Leaving the list"): base64url(address) "." base64url(HMAC-SHA256 of form
// path and address) under the secret in data_dir. They do not expire, survive restarts and need no storage; the
// HMAC is the capability, compared in constant time. Pure: the secret is an argument.
import { createHmac, timingSafeEqual } from 'node:crypto';

function macOf(secret: Buffer, formPath: string, email: string): Buffer {
  // The NUL separator keeps ("/a", "b@c") and ("/ab", "@c")-style pairs apart; paths and addresses hold no NUL.
  return createHmac('sha256', secret).update(`${formPath}\0${email.toLowerCase()}`, 'utf8').digest();
}

/** The token that unsubscribes `email` from the form at `formPath`. */
export function createUnsubscribeToken(secret: Buffer, formPath: string, email: string): string {
  return `${Buffer.from(email, 'utf8').toString('base64url')}.${macOf(secret, formPath, email).toString('base64url')}`;
}

/** The address `token` unsubscribes from `formPath`, or undefined when it is malformed, tampered or for another form. */
export function readUnsubscribeToken(secret: Buffer, formPath: string, token: string | undefined): string | undefined {
  if (!token) return undefined;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const email = Buffer.from(match[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(match[2]!, 'base64url');
  const expected = macOf(secret, formPath, email);
  return given.length === expected.length && timingSafeEqual(given, expected) ? email : undefined;
}

/** The scope of preference tokens: neither a form path (they start with "/") nor a list id (no "#" there). */
const PREFERENCES_SCOPE = '#preferences';

/** The token of `email`'s preference page (docs/newsletter.md "Preferences"): the same HMAC, on every list at once. */
export function createPreferencesToken(secret: Buffer, email: string): string {
  return createUnsubscribeToken(secret, PREFERENCES_SCOPE, email);
}

/** The address of a preference token, or undefined when it is malformed or tampered. */
export function readPreferencesToken(secret: Buffer, token: string | undefined): string | undefined {
  return readUnsubscribeToken(secret, PREFERENCES_SCOPE, token);
}
