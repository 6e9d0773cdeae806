// Comparing a secret someone sent with the configured one in constant time: both are hashed first, so the
// comparison takes as long whatever their lengths and wherever they differ (docs/bounces.md "Where bounces
// come from").
import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether `given` equals `expected`, without the time taken telling how much of it was right. */
export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function digest(value: string | Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}
