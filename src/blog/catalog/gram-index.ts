// Substring search over many short texts (the distinct words of the `q` index, catalog/search-index.ts):
// posting lists of each text's unigrams, bigrams and trigrams, after Russ Cox's "Regular Expression Matching
// with a Trigram Index" and PostgreSQL's pg_trgm. A term's grams are looked up and their lists intersected,
// shortest first, as long as that narrows the candidates more cheaply than checking them; only terms longer than
// three units need their candidates checked with a substring search, because the list of a term's own unigram,
// bigram or trigram is already its exact answer.
import { collectGrams, createGramDictionary, gramsOfTerm, type GramDictionary } from '../text/grams.js';
import { layOutPostingsSteps, listBytes, postingsOf, someInList, type KeysOf, type PostingLists } from './posting-lists.js';
import { stepClock, type StepDue } from './step-clock.js';

/** The texts holding each gram, by the gram's number, as positions in `texts`. */
export interface GramIndex extends PostingLists {
  texts: readonly string[];
  dictionary: GramDictionary;
}

/**
 * Indexes folded `texts`, numbering grams in `dictionary` (pass the previous index's to keep numbers), pausing
 * whenever `due()` says so. Every text is read on each build: they are words, a small share of the posts' text.
 * Each text's distinct grams go into one flat array as they are read (no list sorted or coded per text), which
 * the counting sort of layOutPostingsSteps then reads in place.
 */
export function* gramIndexSteps(texts: readonly string[], dictionary: GramDictionary, due: StepDue = stepClock()): Generator<void, GramIndex> {
  // A text of n units has at most 3n grams: one array of that size is never grown.
  let units = 0;
  for (let at = 0; at < texts.length; at += 1) units += texts[at]!.length;
  const grams = new Uint32Array(3 * units);
  const starts = new Uint32Array(texts.length + 1);
  let count = 0;
  for (let at = 0; at < texts.length; at += 1) {
    const own = collectGrams(dictionary, texts[at]!);
    for (let index = 0; index < own.length; index += 1) grams[count + index] = own[index]!;
    count += own.length;
    starts[at + 1] = count;
    if ((at & 255) === 255 && due()) yield;
  }
  const keysOf: KeysOf = (position) => ({ values: grams.subarray(starts[position]!, starts[position + 1]!), count: starts[position + 1]! - starts[position]! });
  return { texts, ...(yield* layOutPostingsSteps(texts.length, keysOf, dictionary.size, due)), dictionary };
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
  grams.sort((a, b) => listBytes(index, a) - listBytes(index, b));
  const first = postingsOf(index, grams[0]!, new Uint32Array(listBytes(index, grams[0]!)));
  let found = first.values.subarray(0, first.count);
  if (term.length <= 3) return found;
  for (let at = 1; at < grams.length && found.length > 0; at += 1) {
    const bytes = listBytes(index, grams[at]!);
    // Reading a list costs a few nanoseconds a byte, checking a text for the term some tens: past this many bytes
    // a candidate, the check below, which is exact, costs less than narrowing the candidates further.
    if (bytes > CHECK_RATIO * found.length) break;
    const before = found.length;
    found = keepListed(found, index, grams[at]!);
    // A term's grams come together ("htt", "ttp", "tps" in every link): a list that took out almost none says
    // the rest will not either.
    if (found.length * 10 > before * 9) break;
  }
  const verified: number[] = [];
  for (let at = 0; at < found.length; at += 1) if (index.texts[found[at]!]!.includes(term)) verified.push(found[at]!);
  return verified;
}

/** Bytes of a gram's list per candidate text past which the candidates are checked rather than narrowed. */
const CHECK_RATIO = 32;

/** The values of ascending `values` that `gram`'s list holds, walking both in order (the list is not decoded into memory). */
function keepListed(values: Uint32Array, lists: PostingLists, gram: number): Uint32Array {
  const kept = new Uint32Array(values.length);
  let count = 0;
  let at = 0;
  someInList(lists.bytes, lists.offsets[gram]!, lists.offsets[gram + 1]!, (listed) => {
    while (at < values.length && values[at]! < listed) at += 1;
    if (at === values.length) return true;
    if (values[at] === listed) kept[count++] = listed;
    return false;
  });
  return kept.subarray(0, count);
}

/** Bytes of the posting lists, and of the gram tables (shared by the indexes built with one dictionary). */
export function measureGramIndex(index: GramIndex): { postings: number; tables: number } {
  const { dictionary } = index;
  return {
    postings: index.bytes.byteLength + index.offsets.byteLength,
    tables: dictionary.unigrams.byteLength + dictionary.bigrams.byteLength + dictionary.seenIn.byteLength + dictionary.wide.keys.byteLength + dictionary.wide.numbers.byteLength,
  };
}
