// What an unknown name's password is checked against (docs/admin.md "Signing in"): a hash nobody's password
// matches, with the scrypt parameters of the real hashes, so that a wrong name costs as long as a wrong password
// and the time of an answer does not tell which names exist.
import { DEFAULT_SCRYPT, parsePasswordHash, type PasswordHash } from '../kit/password-hash.js';

/**
 * A dummy hash as costly as the costliest of `hashes` (the configuration's, as written) and of the parameters new
 * hashes get (DEFAULT_SCRYPT, the account store's): random salt and bytes, so no password gives it.
 */
export function createDummyHashLike(hashes: readonly string[], randomBytes: (size: number) => Buffer): PasswordHash {
  let like: Pick<PasswordHash, 'N' | 'r' | 'p'> & { hashBytes: number } = { ...DEFAULT_SCRYPT, hashBytes: 32 };
  for (const text of hashes) {
    const parsed = parsePasswordHash(text);
    if ('problem' in parsed) continue;
    if (parsed.N * parsed.r * parsed.p > like.N * like.r * like.p) like = { N: parsed.N, r: parsed.r, p: parsed.p, hashBytes: parsed.hash.length };
  }
  return { N: like.N, r: like.r, p: like.p, salt: randomBytes(16), hash: randomBytes(like.hashBytes) };
}
