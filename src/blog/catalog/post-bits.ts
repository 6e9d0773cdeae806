// A set of posts of a `q` index as bits, one per position (catalog/search-index.ts): what a query's terms match is
// worked out as one such set per term, intersected, counted and walked in order. At 100,000 posts a set is 12.5 KB,
// and counting or intersecting it is a loop over 3,125 numbers; the list of positions it stands for would be an
// array of up to 100,000 numbers to make, sort and filter per query.

/** Bit p (p % 32 of number p >> 5) says whether position p is in the set. */
export type PostBits = Uint32Array;

/** An empty set over `count` positions. */
export function emptyBits(count: number): PostBits {
  return new Uint32Array((count + 31) >>> 5);
}

/** The set of every position below `count`. */
export function fullBits(count: number): PostBits {
  const bits = emptyBits(count).fill(0xffffffff);
  if (count % 32 !== 0) bits[bits.length - 1] = (1 << count % 32) - 1;
  return bits;
}

export function addBit(bits: PostBits, position: number): void {
  bits[position >>> 5]! |= 1 << (position & 31);
}

export function hasBit(bits: PostBits, position: number): boolean {
  return (bits[position >>> 5]! & (1 << (position & 31))) !== 0;
}

/** Keeps in `bits` only what `other` holds too; returns `bits`. */
export function intersectInto(bits: PostBits, other: PostBits): PostBits {
  for (let at = 0; at < bits.length; at += 1) bits[at]! &= other[at] ?? 0;
  return bits;
}

/** Bits set in one number. */
function bitsIn(value: number): number {
  let rest = value - ((value >>> 1) & 0x55555555);
  rest = (rest & 0x33333333) + ((rest >>> 2) & 0x33333333);
  return (Math.imul((rest + (rest >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** How many positions the set holds. */
export function countBits(bits: PostBits): number {
  let count = 0;
  for (let at = 0; at < bits.length; at += 1) if (bits[at] !== 0) count += bitsIn(bits[at]!);
  return count;
}

/** The positions of the set, ascending, from its `skip`-th on, at most `limit` of them. */
export function bitPositions(bits: PostBits, skip = 0, limit = Infinity): number[] {
  const positions: number[] = [];
  let left = skip;
  for (let at = 0; at < bits.length && positions.length < limit; at += 1) {
    let value = bits[at]!;
    if (value === 0) continue;
    // Whole numbers of bits before the first wanted are counted, not walked.
    if (left > 0) {
      const inValue = bitsIn(value);
      if (inValue <= left) {
        left -= inValue;
        continue;
      }
    }
    while (value !== 0 && positions.length < limit) {
      const lowest = value & -value;
      value ^= lowest;
      if (left > 0) left -= 1;
      else positions.push((at << 5) | (31 - Math.clz32(lowest)));
    }
  }
  return positions;
}
