// The three-way merge a conflict page offers when the two changes do not overlap (docs/admin.md "Posts"), line by
// line with node-diff3.
import { merge } from 'node-diff3';

/** `mine` and `theirs` (both edited from `base`) together, or null where their changes overlap. */
export function mergeVersions(mine: string, base: string, theirs: string): string | null {
  const result = merge(mine, base, theirs, { stringSeparator: '\n' });
  return result.conflict ? null : result.result.join('\n');
}
