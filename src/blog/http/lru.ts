// A bounded least-recently-used map, for /posts answers to queries that are not prepared ahead.

export interface Lru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}

/** Keeps at most `capacity` entries; the least recently read or written one goes first. */
export function createLru<K, V>(capacity: number): Lru<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}
