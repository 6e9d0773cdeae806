// `Authorization: Bearer <token>` checking (RFC 6750 section 2.1) in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `header` carries exactly `expected`. Both sides are hashed first, so the comparison takes the
 * same time whatever the length or content of the guess.
 */
export function isBearerTokenValid(header: string | undefined, expected: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  const given = match?.[1] ?? '';
  const same = timingSafeEqual(sha256(given), sha256(expected));
  return match !== null && same;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
