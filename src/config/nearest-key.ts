// The suggestion beside an unknown key (docs/configuration.md "How the file is read"): the known key of the
// same table that is fewest typing mistakes away, when it is close enough to be what was meant.

/**
 * Edits (insert, delete, replace, or swap two neighbours) that turn `a` into `b`: the optimal string alignment
 * distance, so "huor" is one swap from "hour".
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known key closest to `unknown` (letter case aside), if at most a third of its characters (1 to 3 edits)
 * differ; the first of equals in `known`'s order.
 */
export function nearestKey(unknown: string, known: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(unknown.length / 3)));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(unknown.toLowerCase(), key.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}
