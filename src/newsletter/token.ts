// Confirmation tokens (docs/newsletter.md "The flow"): 256 random bits sent once, only their hash is stored.
import { createHash } from 'node:crypto';
import type { RandomBytes } from '../ports.js';

/** Bytes of randomness in a token: 256 bits (docs/newsletter.md "The flow"). */
export const TOKEN_BYTES = 32;

/** A new token, base64url without padding (43 characters), from the injected random source. */
export function createToken(randomBytes: RandomBytes): string {
  const bytes = randomBytes(TOKEN_BYTES);
  if (bytes.length !== TOKEN_BYTES) throw new Error(`random source gave ${bytes.length} bytes, wanted ${TOKEN_BYTES}`);
  return bytes.toString('base64url');
}

/** The stored form of a token: its SHA-256 as lowercase hex, so a leaked journal reveals no usable link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
