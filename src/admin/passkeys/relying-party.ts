// Who the passkeys belong to (docs/admin.md "Passkeys"): the relying party is the host the browser asked, without its
// port, on https when the admin's cookies are secure and http otherwise (http://localhost is a secure context too).
// @simplewebauthn/server costs some 0.4 s to load, so it is loaded on the first ceremony, not at start.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type * as SimpleWebAuthn from '@simplewebauthn/server';
import type { RoutedRequest } from '../../http/route-table.js';
import { lazyModule } from '../../kit/lazy-module.js';
import type { PasskeyRecord } from '../accounts/account.js';

const library = lazyModule<typeof SimpleWebAuthn>('@simplewebauthn/server');

/** The WebAuthn functions, loaded on first use. */
export function webAuthn(): typeof SimpleWebAuthn {
  return library();
}

/** The name authenticators show. */
export const RP_NAME = 'Postbox admin';

/** How long the browser waits for the person. */
export const CEREMONY_TIMEOUT_MS = 120_000;

/** A passkey as stored, with when it last signed in (kept beside the fields the account store declares). */
export type StoredPasskey = PasskeyRecord & { lastUsedAt?: number };

/** The origin and RP ID of `request`, or undefined when its Host header is not one. */
export function relyingPartyOf(request: RoutedRequest, secureCookies: boolean): { origin: string; rpID: string } | undefined {
  const host = request.raw.headers.host;
  if (host === undefined || host === '' || /[\s/\\?#@]/.test(host)) return undefined;
  try {
    const url = new URL(`${secureCookies ? 'https' : 'http'}://${host}`);
    return { origin: url.origin, rpID: url.hostname };
  } catch {
    return undefined;
  }
}

/**
 * What to tell a person whose browser reached /admin by an IP address: browsers keep passkeys for a site's name only
 * (WebAuthn's RP ID is a domain), so none can be added or used there. On a loopback address the same service answers
 * on `localhost`, which is offered as a link; elsewhere only a name that points at the server helps.
 */
export function ipAddressProblemOf(request: RoutedRequest, secureCookies: boolean): { problem: string; localhostUrl?: string } | undefined {
  const party = relyingPartyOf(request, secureCookies);
  const host = party?.rpID.replace(/^\[|\]$/g, '');
  if (!party || host === undefined || isIP(host) === 0) return undefined;
  const problem = `Passkeys cannot be kept for an IP address such as ${host}: browsers keep them for a site's name. Open /admin by a name that points at this server.`;
  if (!(host.startsWith('127.') || host === '::1')) return { problem };
  const url = new URL(request.path, party.origin);
  url.hostname = 'localhost';
  return { problem: `Passkeys cannot be kept for an IP address such as ${host}: browsers keep them for a site's name. On this machine, open ${url.origin}/admin instead.`, localhostUrl: url.href };
}

/** The WebAuthn user handle of `name`: 32 bytes that name the user without saying the name. */
export function userHandleOf(name: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`postbox admin user\0${name}`, 'utf8').digest());
}

/** A JSON answer (the passkey scripts read them). */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): { status: number; headers: Record<string, string>; body: string } {
  return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
}

/** `value` parsed as a JSON object, or undefined. */
export function jsonObjectOf(value: string | null): Record<string, unknown> | undefined {
  if (value === null || value === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
