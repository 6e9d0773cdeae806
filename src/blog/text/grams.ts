// Numbering of the 1-, 2- and 3-unit grams of folded text for the `q` index (catalog/search-index.ts).
//
// Grams are taken over UTF-16 code units, not code points. The plain scan this index answers for is
// String.prototype.includes on folded strings, which compares code units too: a term is a substring of a text
// only if each of its unit grams occurs in the text, so the index never loses a match, surrogate pairs, emoji
// and combining marks included. Each gram gets a small dense number: ASCII grams (nearly every gram of most
// posts) through flat tables for unigrams and bigrams, the rest (trigrams, and grams with a non-ASCII unit) through
// an open addressing table in typed arrays: a flat table of every ASCII trigram would take 8 MB, nearly all of it
// never touched, and a Map keyed by numbers past 2^31 hashes each key as a heap number (some 3 µs a word read).

/** Gram -> number, grown as texts are read; numbers are never reused, so posting lists can be keyed by them. */
export interface GramDictionary {
  /** Number + 1 of each ASCII unigram and bigram (0: not seen yet): unigrams by unit, bigrams by a << 7 | b. */
  unigrams: Int32Array;
  bigrams: Int32Array;
  /** Numbers of trigrams, and of grams with a non-ASCII unit. */
  wide: WideGrams;
  /** How many grams have a number. */
  size: number;
  /** Per gram, the last text that counted it (a text's grams are listed once each). */
  seenIn: Int32Array;
  texts: number;
  /** Scratch space for the grams of one text, `count` of them so far. */
  buffer: Uint32Array;
  count: number;
}

/**
 * Open addressing over typed arrays, at most half full: a gram of `length` units a, b, c is keyed by two 32-bit
 * halves, a << 16 | b and length << 16 | c (never 0, so 0 marks an empty slot).
 */
export interface WideGrams {
  /** Two halves a slot. */
  keys: Uint32Array;
  /** The gram's number a slot. */
  numbers: Int32Array;
  /** How many slots are taken. */
  size: number;
}

function createWideGrams(slots = 1024): WideGrams {
  return { keys: new Uint32Array(2 * slots), numbers: new Int32Array(slots), size: 0 };
}

export function createGramDictionary(): GramDictionary {
  return {
    unigrams: new Int32Array(1 << 7),
    bigrams: new Int32Array(1 << 14),
    wide: createWideGrams(),
    size: 0,
    seenIn: new Int32Array(1024),
    texts: 0,
    buffer: new Uint32Array(1024),
    count: 0,
  };
}

/** What numbers a dictionary's grams, as the `q` index's file keeps it (catalog/search-words-file.ts). */
export interface SavedGrams {
  unigrams: Int32Array;
  bigrams: Int32Array;
  /** [wideKey, number] pairs. */
  wide: Iterable<[number, number]>;
  size: number;
}

/** A dictionary numbering grams as `saved` says, and new ones after them. */
export function restoreGramDictionary(saved: SavedGrams): GramDictionary {
  const dictionary = createGramDictionary();
  dictionary.unigrams.set(saved.unigrams);
  dictionary.bigrams.set(saved.bigrams);
  for (const [key, number] of saved.wide) {
    const units = unitsOfWideKey(key);
    if (units !== null) placeWide(dictionary.wide, units[0] * 65536 + units[1], units[2], number);
  }
  dictionary.size = saved.size;
  dictionary.seenIn = new Int32Array(Math.max(dictionary.seenIn.length, saved.size));
  return dictionary;
}

/** The dictionary's wide grams as [wideKey, number] pairs (what SavedGrams keeps). */
export function wideGramEntries(dictionary: GramDictionary): Array<[number, number]> {
  const { keys, numbers } = dictionary.wide;
  const entries: Array<[number, number]> = [];
  for (let slot = 0; slot < numbers.length; slot += 1) {
    const low = keys[2 * slot + 1]!;
    if (low === 0) continue;
    const high = keys[2 * slot]!;
    entries.push([wideKey((low >>> 16) as 1 | 2 | 3, high >>> 16, high & 0xffff, low & 0xffff), numbers[slot]!]);
  }
  return entries;
}

// Disjoint ranges per gram length; every key is below 2^50, so doubles hold it exactly.
function wideKey(length: 1 | 2 | 3, a: number, b: number, c: number): number {
  if (length === 3) return (a * 65536 + b) * 65536 + c;
  if (length === 2) return 2 ** 48 + a * 65536 + b;
  return 2 ** 49 + a;
}

/** The units wideKey made `key` of, as [a, b, length << 16 | c]; null for a number it never makes. */
export function unitsOfWideKey(key: number): [number, number, number] | null {
  if (!Number.isInteger(key) || key < 0 || key >= 2 ** 49 + 65536) return null;
  if (key >= 2 ** 49) return [key - 2 ** 49, 0, 1 << 16];
  if (key >= 2 ** 48) {
    const rest = key - 2 ** 48;
    if (rest >= 2 ** 32) return null;
    return [Math.floor(rest / 65536), rest % 65536, 2 << 16];
  }
  return [Math.floor(key / 2 ** 32), Math.floor(key / 65536) % 65536, (3 << 16) | key % 65536];
}

function slotHash(high: number, low: number): number {
  const hash = Math.imul(high ^ Math.imul(low, 0x9e3779b1), 0x85ebca6b);
  return hash ^ (hash >>> 15);
}

/** The number under the halves `high` and `low`, or -1. */
function findWide(wide: WideGrams, high: number, low: number): number {
  const mask = wide.numbers.length - 1;
  for (let slot = slotHash(high, low) & mask; ; slot = (slot + 1) & mask) {
    const taken = wide.keys[2 * slot + 1]!;
    if (taken === 0) return -1;
    if (taken === low && wide.keys[2 * slot] === high >>> 0) return wide.numbers[slot]!;
  }
}

/** Puts `number` under the halves `high` and `low` (not there yet), growing the table past half full. */
function placeWide(wide: WideGrams, high: number, low: number, number: number): void {
  if (2 * (wide.size + 1) > wide.numbers.length) {
    const grown = createWideGrams(2 * wide.numbers.length);
    for (let slot = 0; slot < wide.numbers.length; slot += 1) {
      if (wide.keys[2 * slot + 1] !== 0) placeWide(grown, wide.keys[2 * slot]!, wide.keys[2 * slot + 1]!, wide.numbers[slot]!);
    }
    wide.keys = grown.keys;
    wide.numbers = grown.numbers;
  }
  const mask = wide.numbers.length - 1;
  let slot = slotHash(high, low) & mask;
  while (wide.keys[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
  wide.keys[2 * slot] = high;
  wide.keys[2 * slot + 1] = low;
  wide.numbers[slot] = number;
  wide.size += 1;
}

/** The number of a gram, or -1 when no text read so far has it. */
function lookup(dictionary: GramDictionary, length: 1 | 2 | 3, a: number, b: number, c: number): number {
  if (length < 3 && (a | b) < 128) {
    if (length === 2) return dictionary.bigrams[(a << 7) | b]! - 1;
    return dictionary.unigrams[a]! - 1;
  }
  return findWide(dictionary.wide, ((a << 16) | b) >>> 0, (length << 16) | c);
}

function numberOf(dictionary: GramDictionary, length: 1 | 2 | 3, a: number, b: number, c: number): number {
  const known = lookup(dictionary, length, a, b, c);
  if (known !== -1) return known;
  const id = dictionary.size;
  dictionary.size += 1;
  if (length < 3 && (a | b) < 128) {
    if (length === 2) dictionary.bigrams[(a << 7) | b] = id + 1;
    else dictionary.unigrams[a] = id + 1;
  } else {
    placeWide(dictionary.wide, ((a << 16) | b) >>> 0, (length << 16) | c, id);
  }
  if (id >= dictionary.seenIn.length) {
    const grown = new Int32Array(dictionary.seenIn.length * 2);
    grown.set(dictionary.seenIn);
    dictionary.seenIn = grown;
  }
  return id;
}

/** Starts listing the distinct grams of one more text (addGram, then endText). */
export function startText(dictionary: GramDictionary): void {
  dictionary.texts += 1;
  dictionary.count = 0;
}

/** Lists gram `id` for the current text, unless it already is. */
export function addGram(dictionary: GramDictionary, id: number): void {
  if (dictionary.seenIn[id] === dictionary.texts) return;
  dictionary.seenIn[id] = dictionary.texts;
  if (dictionary.count === dictionary.buffer.length) {
    const grown = new Uint32Array(dictionary.count * 2);
    grown.set(dictionary.buffer);
    dictionary.buffer = grown;
  }
  dictionary.buffer[dictionary.count] = id;
  dictionary.count += 1;
}

/** The unigram of unit `a`, or the bigram of units `a` and `b` when `b` is not -1, numbering it when new. */
export function shortGramNumber(dictionary: GramDictionary, a: number, b: number): number {
  if (b === -1) return a < 128 && dictionary.unigrams[a]! !== 0 ? dictionary.unigrams[a]! - 1 : numberOf(dictionary, 1, a, 0, 0);
  return (a | b) < 128 && dictionary.bigrams[(a << 7) | b]! !== 0 ? dictionary.bigrams[(a << 7) | b]! - 1 : numberOf(dictionary, 2, a, b, 0);
}

/** The grams listed since startText: a view of the scratch space, valid until the next startText. */
export function endText(dictionary: GramDictionary): Uint32Array {
  return dictionary.buffer.subarray(0, dictionary.count);
}

/** The distinct unigrams, bigrams and trigrams of a folded text (a word of the `q` index), numbering new ones; a view, as endText's. */
export function collectGrams(dictionary: GramDictionary, folded: string): Uint32Array {
  startText(dictionary);
  const length = folded.length;
  for (let index = 0; index < length; index += 1) {
    const a = folded.charCodeAt(index);
    addGram(dictionary, shortGramNumber(dictionary, a, -1));
    if (index + 1 === length) break;
    const b = folded.charCodeAt(index + 1);
    addGram(dictionary, shortGramNumber(dictionary, a, b));
    if (index + 2 < length) addGram(dictionary, numberOf(dictionary, 3, a, b, folded.charCodeAt(index + 2)));
  }
  return endText(dictionary);
}

/**
 * The grams a folded term needs in a text: its unigram or bigram when it is that short (the posting list is
 * then the exact answer), else its distinct trigrams. Null when some gram occurs in no text: nothing matches.
 */
export function gramsOfTerm(dictionary: GramDictionary, term: string): number[] | null {
  const units = Array.from({ length: term.length }, (_, index) => term.charCodeAt(index));
  if (units.length <= 2) {
    const id = lookup(dictionary, units.length as 1 | 2, units[0]!, units[1] ?? 0, 0);
    return id === -1 ? null : [id];
  }
  const ids = new Set<number>();
  for (let index = 0; index + 2 < units.length; index += 1) {
    const id = lookup(dictionary, 3, units[index]!, units[index + 1]!, units[index + 2]!);
    if (id === -1) return null;
    ids.add(id);
  }
  return [...ids];
}
