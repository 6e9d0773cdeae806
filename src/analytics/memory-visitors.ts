// The day's salt and visitor sets of one process (docs/analytics.md "Visitors"), for the files backend without
// replicas: held in memory only, today's and yesterday's, so a restart starts new ones. Randomness comes in.
import type { RandomBytes } from '../ports.js';
import type { VisitorSets } from './analytics-store.js';

/** Days kept: a salt lives at most 48 hours. */
const DAYS_KEPT = 2;
const SALT_BYTES = 32;

export function createMemoryVisitors(randomBytes: RandomBytes): VisitorSets {
  const days = new Map<string, { salt: Buffer; hashes: Set<string> }>();
  const dayOf = (day: string) => {
    let known = days.get(day);
    if (known === undefined) {
      days.set(day, (known = { salt: randomBytes(SALT_BYTES), hashes: new Set() }));
      // Days are asked in order: the oldest go first.
      for (const old of [...days.keys()].sort().slice(0, -DAYS_KEPT)) days.delete(old);
    }
    return known;
  };
  return {
    saltOf: async (day) => dayOf(day).salt,
    add: async (day, hashes) => {
      const set = dayOf(day).hashes;
      for (const hash of hashes) set.add(hash);
      return set.size;
    },
  };
}
