// Numbering of the 1-, 2- and 3-unit grams of folded text for the `q` index (catalog/search-index.ts).
//
// Grams are taken over UTF-16 code units, not code points. The plain scan this index answers for is
// String.prototype.includes on folded strings, which compares code units too: a term is a substring of a text
// only if each of its unit grams occurs in the text, so the index never loses a match, surrogate pairs, emoji
// and combining marks included. Each gram gets a small dense number: ASCII grams (nearly every gram of most
// posts) through flat tables, the rest through a Map.

/** Gram -> number, grown as texts are read; numbers are never reused, so posting lists can be keyed by them. */
export interface GramDictionary {
  /** Number + 1 of each ASCII gram (0: not seen yet): unigrams by unit, bigrams by a << 7 | b, trigrams by a << 14 | b << 7 | c. */
  unigrams: Int32Array;
  bigrams: Int32Array;
  trigrams: Int32Array;
  /** Numbers of grams with a non-ASCII unit, by `wideKey`. */
  wide: Map<number, number>;
  /** How many grams have a number. */
  size: number;
  /** Per gram, the last text that counted it (a text's grams are listed once each). */
  seenIn: Int32Array;
  texts: number;
  /** Scratch space for the grams of one text. */
  buffer: Uint32Array;
}

export function createGramDictionary(): GramDictionary {
  return {
    unigrams: new Int32Array(1 << 7),
    bigrams: new Int32Array(1 << 14),
    trigrams: new Int32Array(1 << 21),
    wide: new Map(),
    size: 0,
    seenIn: new Int32Array(1024),
    texts: 0,
    buffer: new Uint32Array(1024),
  };
}

// Disjoint ranges per gram length; every key is below 2^50, so doubles hold it exactly.
function wideKey(length: 1 | 2 | 3, a: number, b: number, c: number): number {
  if (length === 3) return (a * 65536 + b) * 65536 + c;
  if (length === 2) return 2 ** 48 + a * 65536 + b;
  return 2 ** 49 + a;
}

/** The number of a gram, or -1 when no text read so far has it. */
function lookup(dictionary: GramDictionary, length: 1 | 2 | 3, a: number, b: number, c: number): number {
  if ((a | b | c) < 128) {
    if (length === 3) return dictionary.trigrams[(a << 14) | (b << 7) | c]! - 1;
    if (length === 2) return dictionary.bigrams[(a << 7) | b]! - 1;
    return dictionary.unigrams[a]! - 1;
  }
  return dictionary.wide.get(wideKey(length, a, b, c)) ?? -1;
}

function numberOf(dictionary: GramDictionary, length: 1 | 2 | 3, a: number, b: number, c: number): number {
  const known = lookup(dictionary, length, a, b, c);
  if (known !== -1) return known;
  const id = dictionary.size;
  dictionary.size += 1;
  if ((a | b | c) < 128) {
    const table = length === 3 ? dictionary.trigrams : length === 2 ? dictionary.bigrams : dictionary.unigrams;
    table[length === 3 ? (a << 14) | (b << 7) | c : length === 2 ? (a << 7) | b : a] = id + 1;
  } else {
    dictionary.wide.set(wideKey(length, a, b, c), id);
  }
  if (id >= dictionary.seenIn.length) {
    const grown = new Int32Array(dictionary.seenIn.length * 2);
    grown.set(dictionary.seenIn);
    dictionary.seenIn = grown;
  }
  return id;
}

/** The distinct grams of a folded text (every unigram, bigram and, unless `longest` is 2, trigram), numbering new ones. */
export function collectGrams(dictionary: GramDictionary, folded: string, longest: 2 | 3 = 3): Uint32Array {
  dictionary.texts += 1;
  const text = dictionary.texts;
  const { unigrams, bigrams, trigrams } = dictionary;
  let count = 0;
  const length = folded.length;
  // The ASCII tables are read inline (the common case); anything else goes through numberOf.
  for (let index = 0; index < length; index += 1) {
    const a = folded.charCodeAt(index);
    const b = index + 1 < length ? folded.charCodeAt(index + 1) : -1;
    const c = index + 2 < length ? folded.charCodeAt(index + 2) : -1;
    for (let size = 1; size <= longest; size += 1) {
      if ((size === 2 && b === -1) || (size === 3 && c === -1)) break;
      const second = size >= 2 ? b : 0;
      const third = size === 3 ? c : 0;
      let id = -1;
      if ((a | second | third) < 128) {
        id = (size === 1 ? unigrams[a]! : size === 2 ? bigrams[(a << 7) | second]! : trigrams[(a << 14) | (second << 7) | third]!) - 1;
      }
      if (id === -1) id = numberOf(dictionary, size as 1 | 2 | 3, a, second, third);
      if (dictionary.seenIn[id] === text) continue;
      dictionary.seenIn[id] = text;
      if (count === dictionary.buffer.length) {
        const grown = new Uint32Array(count * 2);
        grown.set(dictionary.buffer);
        dictionary.buffer = grown;
      }
      dictionary.buffer[count] = id;
      count += 1;
    }
  }
  return dictionary.buffer.slice(0, count);
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
