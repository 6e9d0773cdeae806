// The `q` index (docs/blog.md "How `q` compares text"): every term a substring of a post's folded text.
//
// A term holds no white space (`q` is split on /\s+/u), so wherever it occurs in a post's folded text it lies
// inside one word of that text, a run between white space (text/words.ts): a post contains the term exactly
// when one of its words does. The index keeps each distinct word once with the list of posts holding it, and
// finds the words containing a term through a trigram index over the words (gram-index.ts), as the pg_trgm
// documentation suggests for substring search over a table of unique words. A common term then costs a few
// words' lists, not a read of every post that has its trigrams: "matrix" in 3,000 posts is one or a few words.
import { collectGrams, createGramDictionary, gramsOfTerm, type GramDictionary } from '../text/grams.js';
import { collectWords, createWordTable, type WordTable } from '../text/words.js';
import { buildGramIndex, findTexts, type GramIndex } from './gram-index.js';
import { layOutPostings, type PostingLists } from './posting-lists.js';

/** What the index reads of a post version (tests index plain objects). */
export interface Searchable {
  /** The folded title and Markdown body (PostVersion.searchText). */
  readonly searchText: string;
}

/** Word numbers and each post's words, kept from one index to the next so an edit reads only its file. */
export interface WordStore {
  /** Words of removed posts stay (their lists are empty), so numbers stay valid. */
  table: WordTable;
  wordsOf: WeakMap<Searchable, Uint16Array | Uint32Array>;
  grams: GramDictionary;
  /** Unigrams and bigrams of the posts themselves, and each post's. */
  shortGrams: GramDictionary;
  shortGramsOf: WeakMap<Searchable, Uint16Array | Uint32Array>;
}

/** The posts holding each word (by the word's number, as positions in `posts`), and the words' trigram index. */
export interface SearchIndex extends PostingLists {
  posts: readonly Searchable[];
  positionOf: Map<Searchable, number>;
  vocabulary: GramIndex;
  /**
   * The posts holding each unigram and bigram: the exact answer to a term of one or two units, which the words
   * would give only as the union of tens of thousands of lists ("a" is in most words).
   */
  short: PostingLists;
  store: WordStore;
  /** What callers derive from the index once (catalog/query.ts: each candidate list's order), by list. */
  memo: WeakMap<object, Int32Array>;
}

/** A term whose words' lists hold more entries than this many per post still in the running is looked for in the posts' text. */
const SCAN_RATIO = 32;

/** New words searched one by one, before the words' trigram index is built again. */
const MAX_UNINDEXED_WORDS = 4096;

/** The distinct unigrams and bigrams of a post's folded text, read once per post version object. */
function shortGramsOfPost(store: WordStore, post: Searchable): Uint16Array | Uint32Array {
  let numbers = store.shortGramsOf.get(post);
  if (!numbers) {
    const grams = collectGrams(store.shortGrams, post.searchText, 2);
    numbers = store.shortGrams.size <= 65_536 ? Uint16Array.from(grams) : grams;
    store.shortGramsOf.set(post, numbers);
  }
  return numbers;
}

/** The distinct words of a post's folded text, by number, read once per post version object. */
function wordsOfPost(store: WordStore, post: Searchable): Uint16Array | Uint32Array {
  let numbers = store.wordsOf.get(post);
  if (!numbers) {
    const words = collectWords(store.table, post.searchText);
    numbers = store.table.words.length <= 65_536 ? Uint16Array.from(words) : words;
    store.wordsOf.set(post, numbers);
  }
  return numbers;
}

/**
 * Indexes `posts` (folded texts, in the order answers should come in). With `previous`, posts that are the
 * same objects keep their word lists, and the words' trigram index is kept unless new words appeared: an edit
 * reads one file's text, then the lists are laid out again (a counting sort over typed arrays).
 */
export function buildSearchIndex(posts: readonly Searchable[], previous?: SearchIndex): SearchIndex {
  const store = previous?.store ?? {
    table: createWordTable(),
    wordsOf: new WeakMap(),
    grams: createGramDictionary(),
    shortGrams: createGramDictionary(),
    shortGramsOf: new WeakMap(),
  };
  const lists = layOutPostings(posts.map((post) => wordsOfPost(store, post)), store.table.words.length);
  const short = layOutPostings(posts.map((post) => shortGramsOfPost(store, post)), store.shortGrams.size);
  const words = store.table.words;
  // Words new since the trigram index was built are searched one by one until they are many.
  const kept = previous?.vocabulary;
  const vocabulary = kept && words.length - kept.texts.length <= Math.max(MAX_UNINDEXED_WORDS, kept.texts.length / 8) ? kept : buildGramIndex(words.slice(), store.grams);
  return { posts, positionOf: new Map(posts.map((post, position) => [post, position])), ...lists, vocabulary, short, store, memo: new WeakMap() };
}

/** Positions (ascending) of the posts whose folded text contains every folded term, as String.prototype.includes finds them. */
export function findPositions(index: SearchIndex, terms: readonly string[]): number[] {
  const unique = [...new Set(terms)];
  // hits[p] counts the terms post p has shown so far; a post missing one term stays behind for good.
  const hits = new Uint32Array(index.posts.length);
  let alive = index.posts.length;
  for (let round = 0; round < unique.length && alive > 0; round += 1) {
    const term = unique[round]!;
    if (term.length <= 2) {
      const grams = gramsOfTerm(index.store.shortGrams, term);
      // A gram numbered after this index was built (the dictionary is shared with later ones) is in none of its posts.
      if (grams !== null && grams[0]! + 1 < index.short.offsets.length) advance(hits, index.short, grams[0]!, round);
    } else {
      const words = findWords(index, term);
      let entries = 0;
      for (let at = 0; at < words.length; at += 1) entries += index.offsets[words[at]! + 1]! - index.offsets[words[at]!]!;
      if (entries > SCAN_RATIO * alive) {
        // A term in most posts ("the", "ing"): reading the text finds it within the first lines.
        for (let position = 0; position < hits.length; position += 1) {
          if (hits[position] === round && index.posts[position]!.searchText.includes(term)) hits[position] = round + 1;
        }
      } else {
        for (let at = 0; at < words.length; at += 1) advance(hits, index, words[at]!, round);
      }
    }
    alive = 0;
    for (let position = 0; position < hits.length; position += 1) if (hits[position] === round + 1) alive += 1;
  }
  const positions: number[] = [];
  for (let position = 0; position < hits.length; position += 1) if (hits[position] === unique.length) positions.push(position);
  return positions;
}

/** Moves the posts of `key`'s list that hold every earlier term on to the next round. */
function advance(hits: Uint32Array, lists: PostingLists, key: number, round: number): void {
  const { offsets, postings } = lists;
  for (let next = offsets[key]!, end = offsets[key + 1]!; next < end; next += 1) {
    if (hits[postings[next]!] === round) hits[postings[next]!] = round + 1;
  }
}

/** Numbers of the words that contain `term`: from the trigram index, and from the words added since it was built. */
function findWords(index: SearchIndex, term: string): ArrayLike<number> {
  const indexed = findTexts(index.vocabulary, term);
  const words = index.store.table.words;
  const newest = Math.min(words.length, index.offsets.length - 1);
  if (newest === index.vocabulary.texts.length) return indexed;
  const found = Array.from(indexed);
  for (let number = index.vocabulary.texts.length; number < newest; number += 1) if (words[number]!.includes(term)) found.push(number);
  return found;
}

/** Bytes of the posts' lists and word lists, and the words' characters (at most two bytes each). */
export function measureSearchIndex(index: SearchIndex): { postings: number; wordLists: number; shortGrams: number; words: number; wordCount: number } {
  let wordLists = 0;
  let shortGrams = index.short.postings.byteLength + index.short.offsets.byteLength;
  for (const post of index.posts) {
    wordLists += index.store.wordsOf.get(post)?.byteLength ?? 0;
    shortGrams += index.store.shortGramsOf.get(post)?.byteLength ?? 0;
  }
  let characters = 0;
  for (const word of index.store.table.words) characters += word.length;
  return { postings: index.postings.byteLength + index.offsets.byteLength, wordLists, shortGrams, words: characters, wordCount: index.store.table.words.length };
}
