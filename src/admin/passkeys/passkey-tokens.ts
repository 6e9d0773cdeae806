// The challenges of passkey ceremonies (docs/admin.md "Passkeys"), kept by the browser instead of the server: the
// options carry a token that names the challenge, what it is for, where and when it was made, signed with an HMAC.
// The key is derived from the sign-in throttle's device key, which every replica sharing the records holds, so a
// ceremony begun on one replica ends on any other. A token lives 5 minutes; registration tokens name the user and
// the session they were made for. A token does not stop its own replay: a sign-in is accepted only with a token made
// after the passkey was last used (passkey-sign-in.ts), and a registration stores a credential once.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a ceremony may take, from its options to its answer. */
export const CHALLENGE_MS = 5 * 60_000;

/** What a token was made for. */
export type CeremonyPurpose = 'register' | 'sign_in';

/** What a token holds. */
export interface CeremonyClaims {
  purpose: CeremonyPurpose;
  /** The challenge of the options, base64url. */
  challenge: string;
  /** When the options were made (ms). */
  issuedAt: number;
  /** The origin the ceremony runs on ("https://example.com"). */
  origin: string;
  /** For a registration: the user, and a digest of their session's CSRF token. */
  user?: string;
  session?: string;
}

export interface CeremonyTokens {
  /** A token for `claims`. */
  sign(claims: CeremonyClaims): Promise<string>;
  /** The claims of `token` when it is ours, for `purpose`, and less than 5 minutes old at `now`; undefined otherwise. */
  open(token: string, purpose: CeremonyPurpose, now: number): Promise<CeremonyClaims | undefined>;
}

const VERSION = 'pk1';
const MAX_TOKEN_LENGTH = 2048;

/** Tokens signed under a key derived from `deviceKey()` (the sign-in throttle's, the same on every replica). */
export function createCeremonyTokens(deviceKey: () => Promise<Buffer>): CeremonyTokens {
  let derived: { from: Buffer; key: Buffer } | undefined;
  const keyOf = async (): Promise<Buffer> => {
    const from = await deviceKey();
    if (!derived || !derived.from.equals(from)) derived = { from, key: createHmac('sha256', from).update('postbox passkey ceremony token', 'utf8').digest() };
    return derived.key;
  };
  const macOf = (key: Buffer, payload: string) => createHmac('sha256', key).update(`${VERSION}.${payload}`, 'utf8').digest();

  return {
    async sign(claims) {
      const payload = Buffer.from(
        JSON.stringify({ p: claims.purpose, c: claims.challenge, i: claims.issuedAt, o: claims.origin, u: claims.user, s: claims.session }),
        'utf8',
      ).toString('base64url');
      return `${VERSION}.${payload}.${macOf(await keyOf(), payload).toString('base64url')}`;
    },
    async open(token, purpose, now) {
      if (token.length > MAX_TOKEN_LENGTH) return undefined;
      const [version, payload, mac, ...rest] = token.split('.');
      if (version !== VERSION || payload === undefined || mac === undefined || rest.length > 0) return undefined;
      const expected = macOf(await keyOf(), payload);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const claims = claimsOf(value);
      if (!claims || claims.purpose !== purpose) return undefined;
      // Made within the last 5 minutes (and not in the future beyond a replica's clock drift).
      if (now - claims.issuedAt > CHALLENGE_MS || claims.issuedAt - now > 60_000) return undefined;
      return claims;
    },
  };
}

function claimsOf(value: unknown): CeremonyClaims | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { p, c, i, o, u, s } = value as Record<string, unknown>;
  if ((p !== 'register' && p !== 'sign_in') || typeof c !== 'string' || typeof i !== 'number' || typeof o !== 'string') return undefined;
  if ((u !== undefined && typeof u !== 'string') || (s !== undefined && typeof s !== 'string')) return undefined;
  return { purpose: p, challenge: c, issuedAt: i, origin: o, user: u, session: s };
}

/** What a registration token keeps of the session it was made in: a digest of its CSRF token, never the token. */
export function sessionTagOf(csrfToken: string): string {
  return createHash('sha256').update(`postbox passkey session\0${csrfToken}`, 'utf8').digest('base64url').slice(0, 22);
}
