// The distinct words of folded texts, numbered, for the `q` index (catalog/search-index.ts). A word is a run
// between white space exactly as /\s+/u cuts `q` into terms (catalog/search.ts), so a term, holding no white
// space, can only occur inside one word. Words are hashed while the text is read and looked up in an open
// addressing table, so that reading 10,000 posts does not cut millions of substrings to look them up.

/** Word -> number; numbers are never reused, so lists keyed by them stay valid as words come and go. */
export interface WordTable {
  words: string[];
  hashes: Uint32Array;
  /** Open addressing: word number + 1 per slot, 0 for an empty slot; a power of two long. */
  slots: Int32Array;
  /** Per word, the last text that listed it (a text lists each word once). */
  seenIn: Int32Array;
  texts: number;
  /** Scratch space for the words of one text. */
  buffer: Uint32Array;
}

export function createWordTable(): WordTable {
  return { words: [], hashes: new Uint32Array(1024), slots: new Int32Array(2048), seenIn: new Int32Array(1024), texts: 0, buffer: new Uint32Array(256) };
}

/** Code units /\s/u matches (ECMAScript WhiteSpace and LineTerminator), which all lie in the BMP. */
function isWhiteSpace(unit: number): boolean {
  if (unit < 128) return unit === 32 || (unit >= 9 && unit <= 13);
  return (
    unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) || unit === 0x2028 || unit === 0x2029 ||
    unit === 0x202f || unit === 0x205f || unit === 0x3000 || unit === 0xfeff
  );
}

/** Room for one more word in the arrays indexed by word number. */
function makeRoom(table: WordTable): void {
  if (table.words.length < table.hashes.length) return;
  const hashes = new Uint32Array(table.hashes.length * 2);
  hashes.set(table.hashes);
  table.hashes = hashes;
  const seenIn = new Int32Array(table.seenIn.length * 2);
  seenIn.set(table.seenIn);
  table.seenIn = seenIn;
}

/** Twice the slots, every word placed again: the table is kept at most half full, so probe runs stay short. */
function rehash(table: WordTable): void {
  const slots = new Int32Array(table.slots.length * 2);
  const mask = slots.length - 1;
  for (let number = 0; number < table.words.length; number += 1) {
    let slot = table.hashes[number]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = number + 1;
  }
  table.slots = slots;
}

/** The number of text[start, end), with `hash` its hash, numbering it when new. */
function numberOf(table: WordTable, text: string, start: number, end: number, hash: number): number {
  const mask = table.slots.length - 1;
  let slot = hash & mask;
  for (;;) {
    const found = table.slots[slot]! - 1;
    if (found === -1) break;
    const known = table.words[found]!;
    if (table.hashes[found] === hash && known.length === end - start && text.startsWith(known, start)) return found;
    slot = (slot + 1) & mask;
  }
  makeRoom(table);
  const number = table.words.length;
  // A long slice would be a view that keeps the whole post's text alive; a flattened copy keeps only the word.
  const word = text.slice(start, end);
  table.words.push(word.length < 13 ? word : ` ${word}`.slice(1));
  table.hashes[number] = hash;
  table.slots[slot] = number + 1;
  if (table.words.length * 2 >= table.slots.length) rehash(table);
  return number;
}

/**
 * The distinct words of a folded text, by number, numbering new ones: a view of scratch space, valid until the
 * next text is read. The caller copies it into an array of its own size (a copy made straight from the view
 * leaves no short-lived array behind, which would otherwise lie between the kept ones in memory).
 */
export function readText(table: WordTable, folded: string): Uint32Array {
  table.texts += 1;
  const text = table.texts;
  let count = 0;
  const length = folded.length;
  let index = 0;
  while (index < length) {
    while (index < length && isWhiteSpace(folded.charCodeAt(index))) index += 1;
    if (index === length) break;
    const start = index;
    let hash = 0x811c9dc5;
    for (; index < length; index += 1) {
      const unit = folded.charCodeAt(index);
      if (isWhiteSpace(unit)) break;
      hash = Math.imul(hash ^ unit, 0x01000193); // FNV-1a over code units
    }
    const number = numberOf(table, folded, start, index, hash >>> 0);
    if (table.seenIn[number] === text) continue;
    table.seenIn[number] = text;
    if (count === table.buffer.length) {
      const buffer = new Uint32Array(count * 2);
      buffer.set(table.buffer);
      table.buffer = buffer;
    }
    table.buffer[count] = number;
    count += 1;
  }
  return table.buffer.subarray(0, count);
}
