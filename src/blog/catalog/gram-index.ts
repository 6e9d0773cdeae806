// Substring search over many short texts (the distinct words of the `q` index, catalog/search-index.ts):
// posting lists of each text's unigrams, bigrams and trigrams, after Russ Cox's "Regular Expression Matching
// with a Trigram Index" and PostgreSQL's pg_trgm. A term's grams are looked up and their lists intersected,
// shortest first; only terms longer than three units need their candidates checked with a substring search,
// because the list of a term's own unigram, bigram or trigram is already its exact answer.
import { collectGrams, createGramDictionary, gramsOfTerm, type GramDictionary } from '../text/grams.js';
import { appendList, createPackedLists, keysOfPacked, layOutPostingsSteps, listBytes, postingsOf, type PostingLists } from './posting-lists.js';
import { stepClock, type StepDue } from './step-clock.js';

/** The texts holding each gram, by the gram's number, as positions in `texts`. */
export interface GramIndex extends PostingLists {
  texts: readonly string[];
  dictionary: GramDictionary;
}

/**
 * Indexes folded `texts`, numbering grams in `dictionary` (pass the previous index's to keep numbers), pausing
 * whenever `due()` says so. Every text is read on each build: they are words, a small share of the posts' text.
 */
export function* gramIndexSteps(texts: readonly string[], dictionary: GramDictionary, due: StepDue = stepClock()): Generator<void, GramIndex> {
  const gramLists = createPackedLists();
  for (let at = 0; at < texts.length; at += 1) {
    appendList(gramLists, collectGrams(dictionary, texts[at]!).sort());
    if ((at & 31) === 31 && due()) yield;
  }
  return { texts, ...(yield* layOutPostingsSteps(texts.length, keysOfPacked(gramLists), dictionary.size, due)), dictionary };
}

/** An index of no text, numbering grams in `dictionary`: it finds nothing. */
export function emptyGramIndex(dictionary: GramDictionary): GramIndex {
  return { texts: [], offsets: new Uint32Array(1), bytes: new Uint8Array(0), dictionary };
}

/** gramIndexSteps run to the end at once. */
export function buildGramIndex(texts: readonly string[], dictionary: GramDictionary = createGramDictionary()): GramIndex {
  const steps = gramIndexSteps(texts, dictionary);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Positions (ascending) of the texts that contain the folded term, as String.prototype.includes finds it. */
export function findTexts(index: GramIndex, term: string): ArrayLike<number> {
  const grams = gramsOfTerm(index.dictionary, term);
  // The dictionary is shared with later indexes: a gram numbered after this index was built is in none of its texts.
  if (grams === null || grams.some((gram) => gram + 1 >= index.offsets.length)) return [];
  // Shortest first: the first list bounds what the others are searched for.
  const lists = grams.sort((a, b) => listBytes(index, a) - listBytes(index, b)).map((gram) => {
    const { values, count } = postingsOf(index, gram, new Uint32Array(listBytes(index, gram)));
    return values.subarray(0, count);
  });
  let found: ArrayLike<number> = lists[0]!;
  for (let list = 1; list < lists.length && found.length > 0; list += 1) found = intersect(found, lists[list]!);
  if (term.length <= 3) return found;
  const verified: number[] = [];
  for (let at = 0; at < found.length; at += 1) if (index.texts[found[at]!]!.includes(term)) verified.push(found[at]!);
  return verified;
}

/**
 * The values of ascending `small` that ascending `large` holds: a walk through both when they are of a size,
 * else a binary search in `large` for each value of `small`, from the last hit onwards.
 */
function intersect(small: ArrayLike<number>, large: ArrayLike<number>): number[] {
  const result: number[] = [];
  let low = 0;
  if (large.length < small.length * 16) {
    for (let at = 0; at < small.length && low < large.length; at += 1) {
      const value = small[at]!;
      while (low < large.length && large[low]! < value) low += 1;
      if (large[low] === value) result.push(value);
    }
    return result;
  }
  for (let at = 0; at < small.length; at += 1) {
    const value = small[at]!;
    let high = large.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (large[middle]! < value) low = middle + 1;
      else high = middle;
    }
    if (low === large.length) break;
    if (large[low] === value) result.push(value);
  }
  return result;
}

/** Bytes of the posting lists, and of the gram tables (shared by the indexes built with one dictionary). */
export function measureGramIndex(index: GramIndex): { postings: number; tables: number } {
  const { dictionary } = index;
  return {
    postings: index.bytes.byteLength + index.offsets.byteLength,
    tables: dictionary.unigrams.byteLength + dictionary.bigrams.byteLength + dictionary.seenIn.byteLength + dictionary.wide.size * 16,
  };
}
