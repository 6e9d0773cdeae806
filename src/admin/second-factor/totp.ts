// The TOTP second factor's rules (RFC 6238; docs/admin.md "Your account"): a 160-bit secret in base32, 30-second
// steps, 6 digits, HMAC-SHA-1, the otpauth:// address an authenticator app reads from the QR code; a code is right
// within one step either side of now, and only for a step later than the last one accepted (a code is never taken
// twice). Ten single-use recovery codes, `xxxx-xxxx` from the base32 alphabet (40 random bits each), of which only
// the SHA-256 is kept.
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { RandomBytes } from '../../ports.js';
import type { TotpRecord } from '../accounts/account.js';

/** The issuer an authenticator app shows. */
export const TOTP_ISSUER = 'Postbox';
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now (clock drift, a code typed as it changed). */
export const TOTP_WINDOW = 1;
/** 20 bytes: the length of SHA-1's output (RFC 4226 section 4 recommends 160 bits). */
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_CODE = /^[a-z2-7]{8}$/;

/**
 * What the store keeps of a TOTP factor: the TotpRecord, the last time step a code was accepted for (so that a
 * code seen once, on a screen or in the network, cannot be used again within its window), and the expiry of the
 * last pending sign-in it completed (so that a pending sign-in is used once: second-factor.tsx).
 */
export interface TotpState extends TotpRecord {
  lastStep?: number;
  /** Pending sign-ins expiring at or before this time are spent. */
  pendingSpentUntil?: number;
}

/** Whether a pending sign-in expiring at `expiresAt` was completed already (or an equal or later one was). */
export function isPendingSpent(state: TotpState, expiresAt: number): boolean {
  return state.pendingSpentUntil !== undefined && expiresAt <= state.pendingSpentUntil;
}

/** A new secret: 20 random bytes, base32 (32 characters). */
export function createTotpSecret(randomBytes: RandomBytes): string {
  return new Secret({ buffer: toArrayBuffer(randomBytes(SECRET_BYTES)) }).base32;
}

/** The otpauth:// address of `secret` for `user` of the admin at `site` (its title or host, when known). */
export function totpUriOf(secret: string, user: string, site: string | undefined): string {
  return totpOf(secret, site ? `${user} (${site})` : user).toString();
}

/** The 6-digit code of `secret` at `now` (for tests and the documentation's examples). */
export function totpCodeAt(secret: string, now: number): string {
  return totpOf(secret, 'code').generate({ timestamp: now });
}

/** Whether `code` looks like a TOTP code at all (6 digits, spaces allowed). */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/** The time step `code` is right for at `now`, within the window; undefined when it is right for none. */
export function totpStepOf(secret: string, code: string, now: number): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  let totp: TOTP;
  try {
    totp = totpOf(secret, 'code');
  } catch {
    return undefined;
  }
  const delta = totp.validate({ token, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

/**
 * `state` after `code` was accepted at `now`, its step remembered; undefined when the code is wrong, or is of a step
 * already accepted (replayed).
 */
export function acceptTotp(state: TotpState, code: string, now: number): TotpState | undefined {
  const step = totpStepOf(state.secret, code, now);
  if (step === undefined || (state.lastStep !== undefined && step <= state.lastStep)) return undefined;
  return { ...state, lastStep: step };
}

/** Ten new recovery codes, `xxxx-xxxx` each, as shown to the person once. */
export function createRecoveryCodes(randomBytes: RandomBytes): string[] {
  const codes: string[] = [];
  while (codes.length < RECOVERY_CODE_COUNT) {
    const bytes = randomBytes(5);
    let bits = 0n;
    for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
    let text = '';
    for (let index = 7; index >= 0; index -= 1) text += BASE32[Number((bits >> BigInt(index * 5)) & 31n)];
    const code = `${text.slice(0, 4)}-${text.slice(4)}`;
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/** The form a recovery code is hashed in: lower case, without spaces or hyphens; undefined when it is not one. */
export function normalizeRecoveryCode(code: string): string | undefined {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return RECOVERY_CODE.test(plain) ? plain : undefined;
}

/** What the store keeps of a recovery code: the SHA-256 of its normal form, hex. */
export function recoveryCodeHashOf(code: string): string {
  return createHash('sha256').update(`postbox recovery code\0${normalizeRecoveryCode(code) ?? code}`).digest('hex');
}

function totpOf(secret: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
