// Password hashes of [admin] users (docs/admin.md "Users"): scrypt from node:crypto with its parameters in the
// string, `scrypt$N=32768,r=8,p=1$<salt base64>$<hash base64>`, so that stronger parameters can be chosen later
// without breaking the hashes already configured. Checked in constant time: at sign-in on threads of their own
// (password-check-pool.ts), so that a burst of sign-ins never takes libuv's thread pool from file writes.
import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The parameters of every new hash (`postbox hash-password`, `postbox users`, an invitation, a password change):
 * about 300 ms and 128 MiB per check (RFC 7914 section 2). Older hashes keep verifying with their own.
 */
export const DEFAULT_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;

/** Passwords shorter than this are refused (docs/admin.md "Users"). */
export const MIN_PASSWORD_LENGTH = 12;

const SALT_BYTES = 16;
const HASH_BYTES = 32;

/** A parsed password_hash. */
export interface PasswordHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const FORMAT = /^scrypt\$N=(\d{1,8}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * Reads a password_hash, or says what is wrong with it. The bounds keep a check between a few milliseconds
 * and about a second: a hash is checked on every sign-in, and a huge N would let one request hold the server.
 */
export function parsePasswordHash(text: string): PasswordHash | { problem: string } {
  const match = FORMAT.exec(text);
  if (!match) return { problem: 'must be a hash from "postbox hash-password" (scrypt$N=...,r=...,p=...$salt$hash)' };
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (N < 2 ** 14 || N > 2 ** 20 || (N & (N - 1)) !== 0) return { problem: 'N must be a power of 2 from 16384 to 1048576' };
  if (r < 1 || r > 32) return { problem: 'r must be 1 to 32' };
  if (p < 1 || p > 16) return { problem: 'p must be 1 to 16' };
  const salt = Buffer.from(match[4] as string, 'base64');
  const hash = Buffer.from(match[5] as string, 'base64');
  if (salt.length < 16) return { problem: 'the salt must be at least 16 bytes' };
  if (hash.length < 32 || hash.length > 64) return { problem: 'the hash must be 32 to 64 bytes' };
  return { N, r, p, salt, hash };
}

/** Hashes `password` with a fresh `salt` (16 random bytes, passed in) and `params`. */
export async function hashPassword(password: string, salt: Buffer, params: { N: number; r: number; p: number } = DEFAULT_SCRYPT): Promise<string> {
  const hash = await derive(password, salt, HASH_BYTES, params);
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `password` matches `stored`; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(stored: PasswordHash, password: string): Promise<boolean> {
  const derived = await derive(password, stored.salt, stored.hash.length, stored);
  return timingSafeEqual(derived, stored.hash);
}

/**
 * A hash of nothing anybody knows, with the same parameters as `like`: a sign-in with an unknown name is checked
 * against it, so that it takes as long as one with a wrong password.
 */
export async function createDummyHash(like: PasswordHash, salt: Buffer): Promise<PasswordHash> {
  const hash = await derive(salt.toString('base64'), salt, like.hash.length, like);
  return { N: like.N, r: like.r, p: like.p, salt, hash };
}

export { SALT_BYTES };

/** What checking `password` against `stored` derives, for a check run elsewhere (kit/password-check-pool.ts). */
export interface ScryptCheck {
  /** The password as it is hashed (NFC). */
  password: string;
  salt: Buffer;
  /** The stored hash the derived key must equal. */
  expected: Buffer;
  options: ScryptOptions;
}

export function scryptCheckOf(stored: PasswordHash, password: string): ScryptCheck {
  return { password: password.normalize('NFC'), salt: stored.salt, expected: stored.hash, options: scryptOptionsOf(stored) };
}

function scryptOptionsOf(params: { N: number; r: number; p: number }): ScryptOptions {
  // scrypt needs 128 * N * r bytes (times p); Node's default maxmem (32 MiB) is exactly N=32768, r=8, so a bit
  // of room is added.
  return { N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * params.p + 16 * 1024 * 1024 };
}

function derive(password: string, salt: Buffer, length: number, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options = scryptOptionsOf(params);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}
