// The storage behind the rate limiter: one number per key, kept in last-update order so that the oldest entry
// can be looked at and dropped in O(1) (docs/submission-rules.md "Rate limit"). Keys as the forms service spells
// them (src/forms/rules/rate-limit-key.ts) are kept as numbers, not strings: an IPv4 address in 32 bits, an IPv6
// network of up to 64 bits in 64, and their kind in a byte, found through an open-addressing hash of slot numbers.
// Everything lives in flat typed arrays (values, the doubly linked list of slots, the keys, the hash), about 33
// bytes a slot. Any other key ("unknown", an address of a /128 network) is kept as its text in a Map.

import { keyText, packKey, type PackedKey } from './rate-limit-key.js';

const NONE = -1;
const INITIAL_CAPACITY = 64;
/** The kind of a slot whose key is kept as text. */
const TEXT_KIND = 0;

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
  let capacity = INITIAL_CAPACITY;
  let kinds = new Uint8Array(capacity);
  let highs = new Uint32Array(capacity);
  let lows = new Uint32Array(capacity);
  let values = new Float64Array(capacity);
  let previous = new Int32Array(capacity);
  let next = new Int32Array(capacity);
  /** Slot + 1 of each packed key at its hash position, 0 where none: twice the slots, so at most half full. */
  let hash = new Int32Array(capacity * 2);
  let hashMask = capacity * 2 - 1;
  /** Keys kept as text: their slot, and each such slot's key. */
  const textSlots = new Map<string, number>();
  let slotTexts = new Map<number, string>();
  let count = 0;
  let head = NONE;
  let tail = NONE;
  let freeHead = NONE;
  let used = 0; // slots handed out so far; those past it are free without being on the free list

  // The key last looked up, packed: a take looks its key up, then sets it.
  const packed: PackedKey = { kind: TEXT_KIND, high: 0, low: 0 };
  let packedText: string | undefined;
  let packedOk = false;
  function pack(key: string): boolean {
    if (key !== packedText) {
      packedOk = packKey(key, packed);
      packedText = key;
    }
    return packedOk;
  }

  function hashOf(kind: number, high: number, low: number): number {
    let mixed = low ^ Math.imul(high, 0x9e3779b1) ^ Math.imul(kind, 0x85ebca6b);
    mixed ^= mixed >>> 16;
    mixed = Math.imul(mixed, 0x85ebca6b);
    mixed ^= mixed >>> 13;
    mixed = Math.imul(mixed, 0xc2b2ae35);
    return (mixed ^ (mixed >>> 16)) & hashMask;
  }

  function findPacked(kind: number, high: number, low: number): number {
    for (let at = hashOf(kind, high, low); ; at = (at + 1) & hashMask) {
      const entry = hash[at]!;
      if (entry === 0) return NONE;
      const slot = entry - 1;
      if (lows[slot] === low && highs[slot] === high && kinds[slot] === kind) return slot;
    }
  }

  function hashIn(slot: number): void {
    let at = hashOf(kinds[slot]!, highs[slot]!, lows[slot]!);
    while (hash[at] !== 0) at = (at + 1) & hashMask;
    hash[at] = slot + 1;
  }

  /** Takes `slot` out of the hash, moving later entries of its probe run back (linear probing keeps no tombstones). */
  function hashOut(slot: number): void {
    let hole = hashOf(kinds[slot]!, highs[slot]!, lows[slot]!);
    while (hash[hole] !== slot + 1) hole = (hole + 1) & hashMask;
    for (let at = (hole + 1) & hashMask; hash[at] !== 0; at = (at + 1) & hashMask) {
      const other = hash[at]! - 1;
      const home = hashOf(kinds[other]!, highs[other]!, lows[other]!);
      // The entry may move into the hole unless its home lies cyclically after the hole, up to where it is.
      const stays = hole < at ? home > hole && home <= at : home > hole || home <= at;
      if (stays) continue;
      hash[hole] = hash[at]!;
      hole = at;
    }
    hash[hole] = 0;
  }

  function slotOf(key: string): number {
    if (pack(key)) return findPacked(packed.kind, packed.high, packed.low);
    return textSlots.get(key) ?? NONE;
  }

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

  /** Copies the live entries, oldest first, into fresh arrays of the given size, and hashes them again. */
  function resize(newCapacity: number): void {
    const newKinds = new Uint8Array(newCapacity);
    const newHighs = new Uint32Array(newCapacity);
    const newLows = new Uint32Array(newCapacity);
    const newValues = new Float64Array(newCapacity);
    const newPrevious = new Int32Array(newCapacity);
    const newNext = new Int32Array(newCapacity);
    const newSlotTexts = new Map<number, string>();
    let moved = 0;
    for (let slot = head; slot !== NONE; slot = next[slot]!) {
      newKinds[moved] = kinds[slot]!;
      newHighs[moved] = highs[slot]!;
      newLows[moved] = lows[slot]!;
      newValues[moved] = values[slot]!;
      newPrevious[moved] = moved - 1;
      newNext[moved] = moved + 1;
      if (kinds[slot] === TEXT_KIND) {
        const text = slotTexts.get(slot) as string;
        newSlotTexts.set(moved, text);
        textSlots.set(text, moved);
      }
      moved += 1;
    }
    if (moved > 0) newNext[moved - 1] = NONE;
    capacity = newCapacity;
    kinds = newKinds;
    highs = newHighs;
    lows = newLows;
    values = newValues;
    previous = newPrevious;
    next = newNext;
    slotTexts = newSlotTexts;
    hash = new Int32Array(newCapacity * 2);
    hashMask = newCapacity * 2 - 1;
    for (let slot = 0; slot < moved; slot += 1) if (kinds[slot] !== TEXT_KIND) hashIn(slot);
    head = moved > 0 ? 0 : NONE;
    tail = moved - 1;
    freeHead = NONE;
    used = moved;
  }

  return {
    size: () => count,
    get(key) {
      const slot = slotOf(key);
      return slot === NONE ? undefined : values[slot];
    },
    set(key, value) {
      let slot = slotOf(key);
      if (slot === NONE) {
        slot = allocate();
        if (pack(key)) {
          kinds[slot] = packed.kind;
          highs[slot] = packed.high;
          lows[slot] = packed.low;
          hashIn(slot);
        } else {
          const ownKey = detach(key);
          kinds[slot] = TEXT_KIND;
          textSlots.set(ownKey, slot);
          slotTexts.set(slot, ownKey);
        }
        count += 1;
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
      if (kinds[slot] === TEXT_KIND) {
        textSlots.delete(slotTexts.get(slot) as string);
        slotTexts.delete(slot);
      } else {
        hashOut(slot);
      }
      count -= 1;
      next[slot] = freeHead;
      freeHead = slot;
      if (capacity > INITIAL_CAPACITY && count < capacity / 4) resize(capacity / 2);
    },
    entries() {
      const result: Array<[string, number]> = [];
      for (let slot = head; slot !== NONE; slot = next[slot]!) {
        const key = kinds[slot] === TEXT_KIND ? (slotTexts.get(slot) as string) : keyText(kinds[slot]!, highs[slot]!, lows[slot]!);
        result.push([key, values[slot]!]);
      }
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
