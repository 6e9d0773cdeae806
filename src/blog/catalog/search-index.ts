// The `q` index (docs/blog.md "How `q` compares text"): every term a substring of a post's folded text.
//
// A term holds no white space (`q` is split on /\s+/u), so wherever it occurs in a post's folded text it lies
// inside one word of that text, a run between white space (text/words.ts): a post contains the term exactly
// when one of its words does. The index keeps each distinct word once with the list of posts holding it, and
// finds the words containing a term through a trigram index over the words (gram-index.ts), as the pg_trgm
// documentation suggests for substring search over a table of unique words. A common term then costs a few
// words' lists, not a read of every post that has its trigrams: "matrix" in 3,000 posts is one or a few words.
import { createGramDictionary, type GramDictionary } from '../text/grams.js';
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
}

/** The posts holding each word (by the word's number, as positions in `posts`), and the words' trigram index. */
export interface SearchIndex extends PostingLists {
  posts: readonly Searchable[];
  positionOf: Map<Searchable, number>;
  vocabulary: GramIndex;
  store: WordStore;
  /** What callers derive from the index once (catalog/query.ts: each candidate list's order), by list. */
  memo: WeakMap<object, Int32Array>;
}

/** A term whose words' lists hold more entries than this many per post still in the running is looked for in the posts' text. */
const SCAN_RATIO = 32;

/** New words searched one by one, before the words' trigram index is built again. */
const MAX_UNINDEXED_WORDS = 4096;

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
  const store = previous?.store ?? { table: createWordTable(), wordsOf: new WeakMap(), grams: createGramDictionary() };
  const lists = layOutPostings(posts.map((post) => wordsOfPost(store, post)), store.table.words.length);
  const words = store.table.words;
  // Words new since the trigram index was built are searched one by one until they are many.
  const kept = previous?.vocabulary;
  const vocabulary = kept && words.length - kept.texts.length <= Math.max(MAX_UNINDEXED_WORDS, kept.texts.length / 8) ? kept : buildGramIndex(words.slice(), store.grams);
  return { posts, positionOf: new Map(posts.map((post, position) => [post, position])), ...lists, vocabulary, store, memo: new WeakMap() };
}

/** Positions (ascending) of the posts whose folded text contains every folded term, as String.prototype.includes finds them. */
export function findPositions(index: SearchIndex, terms: readonly string[]): number[] {
  const unique = [...new Set(terms)];
  // hits[p] counts the terms post p has shown so far; a post missing one term stays behind for good.
  const hits = new Uint32Array(index.posts.length);
  let alive = index.posts.length;
  for (let round = 0; round < unique.length && alive > 0; round += 1) {
    const term = unique[round]!;
    const words = findWords(index, term);
    let entries = 0;
    for (let at = 0; at < words.length; at += 1) entries += index.offsets[words[at]! + 1]! - index.offsets[words[at]!]!;
    const scan = entries > SCAN_RATIO * alive;
    alive = 0;
    if (scan) {
      // A term in most posts (one letter, a common pair): reading the text finds it within the first lines.
      for (let position = 0; position < hits.length; position += 1) {
        if (hits[position] === round && index.posts[position]!.searchText.includes(term)) hits[position] = round + 1;
      }
    } else {
      const { offsets, postings } = index;
      for (let at = 0; at < words.length; at += 1) {
        for (let next = offsets[words[at]!]!, end = offsets[words[at]! + 1]!; next < end; next += 1) {
          if (hits[postings[next]!] === round) hits[postings[next]!] = round + 1;
        }
      }
    }
    for (let position = 0; position < hits.length; position += 1) if (hits[position] === round + 1) alive += 1;
  }
  const positions: number[] = [];
  for (let position = 0; position < hits.length; position += 1) if (hits[position] === unique.length) positions.push(position);
  return positions;
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
export function measureSearchIndex(index: SearchIndex): { postings: number; wordLists: number; words: number; wordCount: number } {
  let wordLists = 0;
  for (const post of index.posts) wordLists += index.store.wordsOf.get(post)?.byteLength ?? 0;
  let characters = 0;
  for (const word of index.store.table.words) characters += word.length;
  return { postings: index.postings.byteLength + index.offsets.byteLength, wordLists, words: characters, wordCount: index.store.table.words.length };
}
