// The version a save must present: the SHA-256 of the file's bytes, so any change on disk (by hand, by git, by
// another editor) is seen, and an unchanged file keeps its token whatever its time stamps say.
import { createHash } from 'node:crypto';

/** Hex SHA-256 of `content`. */
export function versionToken(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
