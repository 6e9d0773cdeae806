// The `q` index (docs/blog.md "How `q` compares text"): every term a substring of a post's folded text.
//
// A term holds no white space (`q` is split on /\s+/u), so wherever it occurs in a post's folded text it lies
// inside one word of that text, a run between white space (text/words.ts): a post contains the term exactly
// when one of its words does. The index keeps each distinct word once with the list of posts holding it, and
// finds the words containing a term through a trigram index over the words (gram-index.ts), as the pg_trgm
// documentation suggests for substring search over a table of unique words. A common term then costs a few
// words' lists, not a read of every post that has its trigrams: "matrix" in 3,000 posts is one or a few words.
// A query's matches are a set of posts as bits (post-bits.ts): counted for the total, walked for one page.
import { createGramDictionary, restoreGramDictionary, type GramDictionary, type SavedGrams } from '../text/grams.js';
import { findInJoined, joinWords, type JoinedWords } from '../text/joined-words.js';
import { createWordTable, readText, type WordTable } from '../text/words.js';
import { containsEveryTerm, type Searchable } from './plain-search.js';
import { emptyGramIndex, gramIndexSteps, findTexts, type GramIndex } from './gram-index.js';
import { addListToBits, decodeInto, encodeAscending, layOutPostingsSteps, listBytes, listMeetsMarks, orOfMasks, type PostingLists } from './posting-lists.js';
import { countBits, emptyBits, fullBits, intersectInto, bitPositions, type PostBits } from './post-bits.js';
import { stepClock, type StepDue } from './step-clock.js';

export type { Searchable };

/** A post's distinct words, by number, ascending, as posting-lists.ts codes a list (common words come first). */
export interface PostTerms {
  words: Uint8Array;
  /** Read as the post was loaded, and not yet counted in WordStore.textsRead (a build counts it when it takes it). */
  uncounted?: boolean;
}

/** Where a list of candidates (catalog entries) stands against an index. */
export interface CandidateRanks {
  /** Each indexed post's place in the candidates (-1 when absent). */
  ranks: Int32Array;
  /** The indexed posts that are candidates. */
  present: PostBits;
  /** Whether the candidates' places grow with the posts' positions (the index's order is the candidates'). */
  ordered: boolean;
  /** The places of the candidates the index does not hold: posts new since it was built. */
  unindexed: number[];
}

/** Word numbers and each post's words, kept from one index to the next so an edit reads only its file. */
export interface WordStore {
  /** Words of removed posts stay (their lists are empty), so numbers stay valid. */
  table: WordTable;
  /** The words' grams, for the trigram index over the words. */
  grams: GramDictionary;
  /** What was read of each post version object. */
  termsOf: WeakMap<Searchable, PostTerms>;
  /**
   * Word lists of an earlier run (search-words-file.ts) by searchKey, numbered as `table` is: a post with one of
   * these keys takes its list instead of reading its text.
   */
  saved: Map<string, Uint8Array>;
  /** Post texts read so far. */
  textsRead: number;
}

/** A word table and the posts' lists of its words, as search-words-file.ts keeps them. */
export interface SavedWords {
  /** The table's words, in number order, each followed by a newline, in pieces (none cut). */
  words: string[];
  count: number;
  /** Each post's list (encodeAscending), by searchKey, in the order of the index they were taken from. */
  lists: Map<string, Uint8Array>;
  /** That index's posting lists, when the file kept them: its posts are those of `lists`, in that order. */
  index?: SavedIndex;
}

/** An index as the words file keeps it, numbered as the file's words are. */
export interface SavedIndex {
  /** The posts holding each of the `count` words. */
  postings: PostingLists;
  /** The trigram index over every word, and what numbers its grams; absent when the file has none. */
  vocabulary?: { lists: PostingLists; grams: SavedGrams };
}

/** The posts holding each word (by the word's number, as positions in `posts`), and the words' trigram index. */
export interface SearchIndex extends PostingLists {
  posts: readonly Searchable[];
  /** Each post's distinct words, by position in `posts` (what the store read of it). */
  postWords: readonly Uint8Array[];
  /** Each post's position (positionsOf). */
  positions?: Map<Searchable, number>;
  /** The trigram index over the words: the previous index's, or none, until this one's is built (indexSteps). */
  vocabulary: GramIndex;
  /** The words the trigram index does not hold, joined, made when a term is first looked for in them. */
  unindexedWords?: JoinedWords;
  store: WordStore;
  /** What callers derive from the index once (catalog/query.ts: where each candidate list's posts are), by list. */
  memo: WeakMap<object, CandidateRanks>;
  /** A mark per word, all clear between queries: the words holding a term while posts are looked at for them. */
  marks?: Uint8Array;
}

/** New words searched one by one, before the words' trigram index is built again. */
const MAX_UNINDEXED_WORDS = 4096;

export function createWordStore(): WordStore {
  return { table: createWordTable(), grams: createGramDictionary(), termsOf: new WeakMap(), saved: new Map(), textsRead: 0 };
}

/**
 * Takes an earlier run's words into a store that has numbered none yet: its table numbers them as they were, so
 * that their lists can be used as they are, and its grams are numbered as the file's trigram index has them.
 * Whether it did (not when the words are not distinct words). adoptSavedWordsSteps pauses whenever `due()` says so.
 */
export function adoptSavedWords(store: WordStore, saved: SavedWords): boolean {
  const steps = adoptSavedWordsSteps(store, saved, () => false);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export function* adoptSavedWordsSteps(store: WordStore, saved: SavedWords, due: StepDue): Generator<void, boolean> {
  if (store.table.words.length > 0) return false;
  // Distinct runs without white space are numbered 0, 1, 2... as they come; anything else shows in the count.
  let read = 0;
  for (const piece of saved.words) {
    read += readText(store.table, piece).length;
    if (due()) yield;
  }
  // The scratch space grew to hold every word at once: a post needs far less.
  store.table.buffer = new Uint32Array(256);
  if (read !== saved.count || store.table.words.length !== saved.count) return false;
  store.saved = saved.lists;
  const grams = saved.index?.vocabulary?.grams;
  if (grams) store.grams = restoreGramDictionary(grams);
  return true;
}

/**
 * Whether `posts` are the posts of the index the words file kept, in its order: then that index is theirs as it
 * is (savedIndexSteps), where any change of a post (its file's stamp), a post more or less, or another order
 * (a scheduled post published meanwhile) has the lists laid out again (indexSteps).
 */
export function fitsSavedIndex(posts: readonly Searchable[], saved: SavedWords): boolean {
  if (saved.index === undefined || posts.length !== saved.lists.size) return false;
  let position = 0;
  for (const key of saved.lists.keys()) {
    if (posts[position]!.searchKey !== key) return false;
    position += 1;
  }
  return true;
}

/**
 * The posts of the index the words file kept, as `posts` has them: each by its key, or a stand-in no catalog lists
 * where the post's file changed or is gone. Null when more than `most` of `posts` are not among them. With it, the
 * kept index answers for `posts` (savedIndexSteps), those it lacks read one by one, while theirs is built.
 */
export function savedPostsFor(posts: readonly Searchable[], saved: SavedWords, most: number): Searchable[] | null {
  if (saved.index === undefined) return null;
  const byKey = new Map<string, Searchable>();
  for (const post of posts) if (post.searchKey !== undefined) byKey.set(post.searchKey, post);
  const kept: Searchable[] = [];
  let found = 0;
  for (const key of saved.lists.keys()) {
    const post = byKey.get(key);
    if (post) found += 1;
    kept.push(post ?? { searchText: '', searchKey: key });
  }
  return posts.length - found <= most ? kept : null;
}

/**
 * The index the words file kept, for `posts` (fitsSavedIndex, or savedPostsFor), in a store that adopted the file: each post takes
 * its list, and nothing is laid out. Without the trigram index over the words in the file, the generator yields
 * the index (it answers at once, looking for a term in the words joined) and builds it step by step, as indexSteps.
 */
export function* savedIndexSteps(posts: readonly Searchable[], saved: SavedWords, store: WordStore, due: StepDue = stepClock()): Generator<SearchIndex | void, SearchIndex> {
  const { postings, vocabulary } = saved.index!;
  const postWords: Uint8Array[] = [];
  const positions = new Map<Searchable, number>();
  for (const post of posts) {
    positions.set(post, postWords.push(termsOfPost(store, post).words) - 1);
    if (due()) yield;
  }
  const wordCount = postings.offsets.length - 1;
  const index: SearchIndex = {
    posts,
    postWords,
    positions,
    offsets: postings.offsets,
    bytes: postings.bytes,
    vocabulary: vocabulary ? { texts: store.table.words.slice(0, wordCount), ...vocabulary.lists, dictionary: store.grams } : emptyGramIndex(store.grams),
    store,
    memo: new WeakMap(),
  };
  if (vocabulary) return index;
  yield index;
  index.vocabulary = yield* gramIndexSteps(store.table.words.slice(0, wordCount), store.grams, due);
  index.unindexedWords = undefined;
  return index;
}

/** Each post's position in `index.posts`. */
export function positionsOf(index: SearchIndex): Map<Searchable, number> {
  index.positions ??= new Map(index.posts.map((post, position) => [post, position]));
  return index.positions;
}

/** The distinct words of a post's folded text, read once per post version object (or taken from an earlier run's). */
function termsOfPost(store: WordStore, post: Searchable): PostTerms {
  let terms = store.termsOf.get(post);
  if (terms?.uncounted) {
    terms.uncounted = false;
    store.textsRead += 1;
  }
  if (!terms) {
    const key = post.searchKey;
    const saved = key === undefined ? undefined : store.saved.get(key);
    if (saved) {
      store.saved.delete(key!);
      terms = { words: saved };
      store.termsOf.set(post, terms);
    } else terms = takeTermsOf(store, post, post.searchText);
  }
  return terms;
}

/**
 * Reads the words of `folded`, the post's searchText, into the store as the post's (when the loader has the text
 * at hand: the build then reads no file). Not `counted` in textsRead until a build takes it (a draft never is).
 */
export function takeTermsOf(store: WordStore, post: Searchable, folded: string, counted = true): PostTerms {
  // Words are numbered as they are first met, so the common ones have small numbers and come first.
  const terms: PostTerms = { words: encodeAscending(readText(store.table, folded).sort()), uncounted: !counted };
  if (counted) store.textsRead += 1;
  store.termsOf.set(post, terms);
  return terms;
}

/**
 * Indexes `posts` (folded texts, in the order answers should come in) step by step: the generator pauses whenever
 * `due()` says so (every STEP_MS by default, step-clock.ts), so a caller can let other work run in between
 * (catalog/search-indexer.ts). Posts that are the same objects as in an earlier index of `store` keep what was
 * read of them, and `previous`'s trigram index over the words is kept unless many new words appeared: an edit
 * reads one file's text (none when the loader handed it over: takeTermsOf), then the lists are laid out again (a
 * counting sort over typed arrays). Posts loaded or judged meanwhile (takeTermsOf, createTermMatcher) number words
 * between the steps: the posts' lists are fixed before the first step that lays them out, and words numbered after
 * it are in none of this index's posts.
 *
 * `onWordsRead()` is called once every post's words are read, before the lists are laid out. Once they are, the
 * generator yields the index, which can answer from then on (the indexer waits for the rest: search-indexer.ts
 * EARLY_ANSWER_MS): until the words' trigram index is built, the words it lacks are searched one by one, some
 * milliseconds a term at 10,000 posts. The index returned is that object.
 */
export function* indexSteps(
  posts: readonly Searchable[],
  previous: SearchIndex | undefined,
  store: WordStore,
  due: StepDue = stepClock(),
  onWordsRead: () => void = () => undefined,
): Generator<SearchIndex | void, SearchIndex> {
  // Each post's position too, made in the same steps: a Map of 100,000 posts at once held requests for tens of ms.
  const positions = new Map<Searchable, number>();
  for (let position = 0; position < posts.length; position += 1) {
    termsOfPost(store, posts[position]!);
    positions.set(posts[position]!, position);
    if (due()) yield;
  }
  onWordsRead();
  const postWords = posts.map((post) => termsOfPost(store, post).words);
  // The words of these posts: any numbered later (of another catalog's posts) are in none of them.
  const wordCount = store.table.words.length;
  const lists = yield* layOutPostingsSteps(
    postWords.length,
    (position, into) => decodeInto(postWords[position]!, 0, postWords[position]!.length, into),
    wordCount,
    due,
  );
  // Words new since the trigram index was built are searched one by one until they are many.
  const kept = previous?.store === store ? previous.vocabulary : undefined;
  const keep = kept !== undefined && wordCount - kept.texts.length <= Math.max(MAX_UNINDEXED_WORDS, kept.texts.length / 8);
  const index: SearchIndex = {
    posts,
    postWords,
    positions,
    ...lists,
    vocabulary: kept ?? emptyGramIndex(store.grams),
    store,
    memo: new WeakMap(),
  };
  yield index;
  if (!keep) {
    index.vocabulary = yield* gramIndexSteps(store.table.words.slice(0, wordCount), store.grams, due);
    index.unindexedWords = undefined;
  }
  return index;
}

/** indexSteps run to the end at once (tests, benchmarks). */
export function buildSearchIndex(posts: readonly Searchable[], previous?: SearchIndex, store: WordStore = previous?.store ?? createWordStore()): SearchIndex {
  const steps = indexSteps(posts, previous, store);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Whether a post contains every term, as containsEveryTerm says, for one query, of a post the answering index does
 * not hold: judged by the post's words (a term lies inside one word, so no text is searched). Words the store has
 * not got yet are read from the post's text now and kept, and the index build takes them as they are; while `canRead()` says no (the words file is being taken in, and
 * nothing may be numbered before it), a post without words is judged by its text. What each word holds is worked
 * out once per query, however many posts hold the word.
 */
export function createTermMatcher(store: WordStore, terms: readonly string[], canRead: () => boolean): (post: Searchable) => boolean {
  const unique = [...new Set(terms)];
  // Terms in groups of 7: bit i of a word's mask says whether it contains the group's term i, and bit 7 that the
  // mask is worked out (0: not yet). A post holds the group when its words' masks together have every term's bit.
  // A byte a word (246 KB at 100,000 posts) for most queries, which have one group.
  const groups: Array<{ terms: string[]; all: number; masks: Uint8Array; fill(word: number): number }> = [];
  for (let at = 0; at < unique.length; at += 7) {
    const group = {
      terms: unique.slice(at, at + 7),
      all: 0,
      masks: new Uint8Array(0),
      fill(word: number): number {
        const text = store.table.words[word]!;
        let mask = WORKED_OUT;
        for (let bit = 0; bit < group.terms.length; bit += 1) if (text.includes(group.terms[bit]!)) mask |= 1 << bit;
        group.masks[word] = mask;
        return mask;
      },
    };
    group.all = 2 ** group.terms.length - 1;
    groups.push(group);
  }
  return (post) => {
    if (!canRead() && !store.termsOf.has(post)) return containsEveryTerm(post, unique);
    const { words } = termsOfPost(store, post);
    const numbered = store.table.words.length;
    for (const group of groups) {
      if (group.masks.length < numbered) {
        // Doubled at least: new words come one after another.
        const masks = new Uint8Array(Math.max(numbered, 2 * group.masks.length));
        masks.set(group.masks);
        group.masks = masks;
      }
      if (orOfMasks(words, 0, words.length, group.masks, group.all, group.fill) !== group.all) return false;
    }
    return true;
  };
}

/** A word's mask in createTermMatcher once worked out: a bit no term has. */
const WORKED_OUT = 0x80;

/**
 * The posts whose folded text contains every folded term, as String.prototype.includes finds them: a set of
 * positions (post-bits.ts). Each term is the union of the lists of the words containing it; terms are taken
 * cheapest first, each set intersected with what the ones before left.
 */
export function findMatches(index: SearchIndex, terms: readonly string[]): PostBits {
  const count = index.posts.length;
  // A term of one or two units goes through the words too: the words' unigram and bigram lists find the words
  // holding it, and a common one ("a", "th") is looked for in the posts' word lists, where it is found at once.
  const looked = [...new Set(terms)].map((term) => {
    const words = findWords(index, term);
    let bytes = 0;
    for (let at = 0; at < words.length; at += 1) bytes += listBytes(index, words[at]!);
    return { words, bytes };
  });
  looked.sort((a, b) => a.bytes - b.bytes);
  let found: PostBits | null = null;
  let alive = count;
  for (const { words, bytes } of looked) {
    if (alive === 0) break;
    // Reading the lists costs about as much a byte as reading the posts' word lists does: the posts still in the
    // running are looked at instead when their lists, whole, take fewer bytes, or when the term's words hold more
    // than half of every post's words ("e", "th"), found within a post's first few words.
    if (2 * bytes > index.bytes.length || alive * index.bytes.length < bytes * count) {
      found ??= fullBits(count);
      keepHolding(index, found, words);
    } else {
      const termFound = emptyBits(count);
      for (let at = 0; at < words.length; at += 1) {
        const word = words[at]!;
        addListToBits(termFound, index.bytes, index.offsets[word]!, index.offsets[word + 1]!);
      }
      found = found === null ? termFound : intersectInto(found, termFound);
    }
    alive = countBits(found);
  }
  // No term: every post holds every term.
  return found ?? fullBits(count);
}

/** Positions (ascending) of the posts whose folded text contains every folded term (findMatches as a list). */
export function findPositions(index: SearchIndex, terms: readonly string[]): number[] {
  return bitPositions(findMatches(index, terms));
}

/** Takes out of `found` the posts that hold none of `words`, each judged by its word list. */
function keepHolding(index: SearchIndex, found: PostBits, words: ArrayLike<number>): void {
  const wordCount = index.offsets.length - 1;
  if (index.marks === undefined || index.marks.length < wordCount) index.marks = new Uint8Array(wordCount);
  const marks = index.marks;
  for (let at = 0; at < words.length; at += 1) marks[words[at]!] = 1;
  for (let at = 0; at < found.length; at += 1) {
    let value = found[at]!;
    while (value !== 0) {
      const lowest = value & -value;
      value ^= lowest;
      const postWords = index.postWords[(at << 5) | (31 - Math.clz32(lowest))]!;
      if (!listMeetsMarks(postWords, 0, postWords.length, marks)) found[at]! &= ~lowest;
    }
  }
  // The marks are left clear for the next term.
  for (let at = 0; at < words.length; at += 1) marks[words[at]!] = 0;
}

/** Numbers of the words that contain `term`: from the trigram index, and from the words added since it was built. */
function findWords(index: SearchIndex, term: string): ArrayLike<number> {
  const indexed = findTexts(index.vocabulary, term);
  const words = index.store.table.words;
  const newest = Math.min(words.length, index.offsets.length - 1);
  const first = index.vocabulary.texts.length;
  if (newest === first) return indexed;
  let joined = index.unindexedWords;
  if (joined?.first !== first || joined.end !== newest) index.unindexedWords = joined = joinWords(words, first, newest);
  const found = Array.from(indexed);
  findInJoined(joined, term, found);
  return found;
}

/** Bytes of the posts' lists and word lists, and the words' characters (at most two bytes each). */
export function measureSearchIndex(index: SearchIndex): { postings: number; wordLists: number; words: number; wordCount: number } {
  let wordLists = 0;
  for (const post of index.posts) wordLists += index.store.termsOf.get(post)?.words.byteLength ?? 0;
  let characters = 0;
  for (const word of index.store.table.words) characters += word.length;
  return { postings: index.bytes.byteLength + index.offsets.byteLength, wordLists, words: characters, wordCount: index.store.table.words.length };
}
