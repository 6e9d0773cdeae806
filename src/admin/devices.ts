// Remembered browsers (docs/admin.md "Signing in"): at each sign-in the browser gets a new random token for the
// name in the cookie `postbox_admin_device`, and the account keeps the token's SHA-256 with the user's generation.
// A browser is a known device for a name only while that hash is kept for the name's account in its generation now;
// its failed attempts then count under a key of its own instead of the name's. "Forget remembered devices" and every
// change that moves the generation (a new password, "Sign out everywhere", a new role, removal) forget them.
import { createHash } from 'node:crypto';
import type { RandomBytes } from '../ports.js';
import type { Account, DeviceRecord, StoredAccount } from './accounts/account.js';
import { cookieValues } from './session-cookie.js';

/** The cookie that carries a browser's device tokens, one per name it signed in as. */
export const DEVICE_COOKIE = 'postbox_admin_device';
/** 400 days, the longest a browser keeps a cookie (RFC 6265bis section 5.5). */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;
/** The names one browser is remembered for: the most recent ones. */
const DEVICE_NAMES = 4;
/** The browsers one user is remembered in: the most recently used ones. */
export const MAX_DEVICES = 10;
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new device token: 32 random bytes, base64url (43 characters). */
export function createDeviceToken(randomBytes: RandomBytes): string {
  return randomBytes(32).toString('base64url');
}

/** What the account keeps of a device token: its SHA-256, hex. */
export function deviceHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The throttle's key for the failures of one remembered browser. */
export function deviceThrottleKeyOf(device: DeviceRecord): string {
  return `device:${device.hash.slice(0, 32)}`;
}

/** The device tokens a Cookie header carries (none when it carries none), at most a few. */
export function deviceTokensOf(cookieHeader: string | undefined): string[] {
  return cookieValues(cookieHeader, DEVICE_COOKIE)
    .flatMap((value) => value.split('.').filter((token) => DEVICE_TOKEN.test(token)))
    .slice(0, 2 * DEVICE_NAMES);
}

/**
 * The remembered browser of `account` whose token is among `tokens`, or undefined. The hashes of 256-bit random
 * tokens are compared: learning one gives no token.
 */
export function knownDeviceOf(account: Account | undefined, tokens: readonly string[]): DeviceRecord | undefined {
  if (!account || tokens.length === 0) return undefined;
  const hashes = new Set(tokens.map(deviceHashOf));
  return account.devices.find((device) => hashes.has(device.hash));
}

/**
 * `current` with the browser of `hash` remembered at `now`, in place of the devices among `replacedHashes` (this
 * browser's earlier tokens for the name, whose first time it keeps); devices of an earlier generation are dropped, and
 * the least recently used beyond MAX_DEVICES.
 */
export function rememberDevice(current: StoredAccount, hash: string, replacedHashes: readonly string[], now: number): StoredAccount {
  const live = (current.devices ?? []).filter((device) => device.generation === current.generation);
  const replaced = live.filter((device) => replacedHashes.includes(device.hash));
  const createdAt = Math.min(now, ...replaced.map((device) => device.createdAt));
  const others = live.filter((device) => !replacedHashes.includes(device.hash)).sort((first, second) => second.lastUsedAt - first.lastUsedAt);
  const devices = [{ hash, generation: current.generation, createdAt, lastUsedAt: now }, ...others].slice(0, MAX_DEVICES);
  return { ...current, devices };
}

/** Set-Cookie for the device cookie: `tokens`, one per name, newest first, at most DEVICE_NAMES. */
export function deviceCookie(tokens: readonly string[], secure: boolean): string {
  return `${DEVICE_COOKIE}=${tokens.slice(0, DEVICE_NAMES).join('.')}; Path=/admin; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
