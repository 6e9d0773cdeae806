// The storage behind the rate limiter: one number per key, kept in last-update order so that the oldest
// entry can be looked at and dropped in O(1). Flat typed arrays (values plus a doubly linked list of slot
// numbers) keep each entry lean: a Map entry with a small-integer value, the key, and 20 bytes of arrays.

const NONE = -1;
const INITIAL_CAPACITY = 64;

/** Keys with one number each, ordered from least to most recently set. */
export interface BucketTable {
  size(): number;
  get(key: string): number | undefined;
  /** Inserts or updates, and makes the key the most recent. */
  set(key: string, value: number): void;
  oldestValue(): number | undefined;
  deleteOldest(): void;
  /** Oldest first. */
  entries(): Array<[string, number]>;
}

/** An empty table; it grows by doubling and shrinks when three quarters are unused. */
export function createBucketTable(): BucketTable {
  const slotOf = new Map<string, number>();
  let capacity = INITIAL_CAPACITY;
  let keys: Array<string | undefined> = new Array<string | undefined>(capacity);
  let values = new Float64Array(capacity);
  let previous = new Int32Array(capacity);
  let next = new Int32Array(capacity);
  let head = NONE;
  let tail = NONE;
  let freeHead = NONE;
  let used = 0; // slots handed out so far; those past it are free without being on the free list

  function unlink(slot: number): void {
    const before = previous[slot]!;
    const after = next[slot]!;
    if (before === NONE) head = after;
    else next[before] = after;
    if (after === NONE) tail = before;
    else previous[after] = before;
  }

  function append(slot: number): void {
    previous[slot] = tail;
    next[slot] = NONE;
    if (tail === NONE) head = slot;
    else next[tail] = slot;
    tail = slot;
  }

  function allocate(): number {
    if (freeHead !== NONE) {
      const slot = freeHead;
      freeHead = next[slot]!;
      return slot;
    }
    if (used === capacity) resize(capacity * 2);
    used += 1;
    return used - 1;
  }

  /** Copies the live entries, oldest first, into fresh arrays of the given size. */
  function resize(newCapacity: number): void {
    const newKeys = new Array<string | undefined>(newCapacity);
    const newValues = new Float64Array(newCapacity);
    const newPrevious = new Int32Array(newCapacity);
    const newNext = new Int32Array(newCapacity);
    let count = 0;
    for (let slot = head; slot !== NONE; slot = next[slot]!) {
      const key = keys[slot] as string;
      newKeys[count] = key;
      newValues[count] = values[slot]!;
      newPrevious[count] = count - 1;
      newNext[count] = count + 1;
      slotOf.set(key, count);
      count += 1;
    }
    if (count > 0) newNext[count - 1] = NONE;
    capacity = newCapacity;
    keys = newKeys;
    values = newValues;
    previous = newPrevious;
    next = newNext;
    head = count > 0 ? 0 : NONE;
    tail = count - 1;
    freeHead = NONE;
    used = count;
  }

  return {
    size: () => slotOf.size,
    get(key) {
      const slot = slotOf.get(key);
      return slot === undefined ? undefined : values[slot];
    },
    set(key, value) {
      let slot = slotOf.get(key);
      if (slot === undefined) {
        slot = allocate();
        const ownKey = detach(key);
        keys[slot] = ownKey;
        slotOf.set(ownKey, slot);
      } else {
        unlink(slot);
      }
      values[slot] = value;
      append(slot);
    },
    oldestValue: () => (head === NONE ? undefined : values[head]),
    deleteOldest() {
      if (head === NONE) return;
      const slot = head;
      unlink(slot);
      slotOf.delete(keys[slot] as string);
      keys[slot] = undefined;
      next[slot] = freeHead;
      freeHead = slot;
      if (capacity > INITIAL_CAPACITY && slotOf.size < capacity / 4) resize(capacity / 2);
    },
    entries() {
      const result: Array<[string, number]> = [];
      for (let slot = head; slot !== NONE; slot = next[slot]!) result.push([keys[slot] as string, values[slot]!]);
      return result;
    },
  };
}

/**
 * A copy of the key that shares no memory with a larger string. V8 makes substrings as views of their
 * parent, so a key cut out of a 16 KB X-Forwarded-For header would otherwise keep the whole header alive
 * for as long as its bucket lives. The JSON round trip yields a fresh flat string and keeps lone surrogates.
 */
function detach(key: string): string {
  return JSON.parse(JSON.stringify(key)) as string;
}
