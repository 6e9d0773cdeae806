// Posting lists laid out in one typed array (compressed sparse rows), the form both `q` indexes keep them in:
// a few large arrays instead of one small array per key.

/** The items holding key k are postings[offsets[k] .. offsets[k + 1]), as ascending positions. */
export interface PostingLists {
  offsets: Uint32Array;
  /** 16-bit positions while there are at most 65,536 items, which halves the lists' size. */
  postings: Uint16Array | Uint32Array;
}

/**
 * Inverts `keysOf` (the distinct keys, below `keyCount`, of each item by position) by a counting sort, pausing
 * after every `itemsPerStep` items of each of its two passes.
 */
export function* layOutPostingsSteps(keysOf: ReadonlyArray<Uint16Array | Uint32Array>, keyCount: number, itemsPerStep: number): Generator<void, PostingLists> {
  const offsets = new Uint32Array(keyCount + 1);
  for (let position = 0; position < keysOf.length; position += 1) {
    const keys = keysOf[position]!;
    for (let index = 0; index < keys.length; index += 1) offsets[keys[index]! + 1]! += 1;
    if ((position + 1) % itemsPerStep === 0) yield;
  }
  for (let key = 0; key < keyCount; key += 1) offsets[key + 1]! += offsets[key]!;
  const postings = keysOf.length <= 65_536 ? new Uint16Array(offsets[keyCount]!) : new Uint32Array(offsets[keyCount]!);
  const cursor = offsets.slice(0, keyCount);
  for (let position = 0; position < keysOf.length; position += 1) {
    const keys = keysOf[position]!;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index]!;
      postings[cursor[key]!] = position;
      cursor[key]! += 1;
    }
    if ((position + 1) % itemsPerStep === 0) yield;
  }
  return { offsets, postings };
}

/** The list of `key`, a view into the shared array. */
export function postingsOf(lists: PostingLists, key: number): Uint16Array | Uint32Array {
  return lists.postings.subarray(lists.offsets[key]!, lists.offsets[key + 1]!);
}
