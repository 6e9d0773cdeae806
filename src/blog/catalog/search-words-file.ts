// The `q` index kept in data_dir (docs/blog.md "Start-up and the load cache"): the word table, each indexed post's
// list of its words under the post's searchKey (its file and the file's stamp), and the index's posting lists and
// trigram index over the words, so that a restart with unchanged posts takes the index as it is, and one after
// changes reads only the post files that changed. Like the load cache it never changes an answer: a file written
// under another key, or that is not laid out as below down to its last byte, or whose checksum differs, is not
// used; a list is used only for a post whose file has the same stamp, and the index only for the very posts it
// was built from, in the same order.
//
// Layout: a first line of JSON ({"format", "key"}), then little-endian binary: the word count, the words' byte
// length, their encoding (8 or 16: UTF-8 unless a word holds a lone surrogate, which only UTF-16 keeps; UTF-8
// gives one-byte strings in memory for ASCII words, UTF-16 two) and the words, each followed by a newline, the
// number of records, and one record per post: its key's byte length, the key (UTF-8), its list's byte length and
// the list (posting-lists.ts encodeAscending). Then 1 and the posting lists (the word count, its offsets, the
// bytes' length and the bytes), or 0 when the records are not every post of the index; after the lists, 1 and the
// trigram index (the gram dictionary as gramsBytes writes it, the count of gram lists, their offsets, the bytes'
// length and the bytes), or 0 (it is always written now; a file without it is still read). Last, the SHA-1 of
// every byte after the first line: a damaged byte anywhere in 100 MB of lists is found without reading each list.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { isCacheHeader, type CacheKey } from '../../kit/files/cache-header.js';
import { createGramDictionary, unitsOfWideKey, wideGramEntries, type GramDictionary, type SavedGrams } from '../text/grams.js';
import { decodeInto, encodeAscending, isListBelow, type PostingLists } from './posting-lists.js';
import type { SavedIndex, SavedWords, SearchIndex } from './search-index.js';
import { gramIndexSteps } from './gram-index.js';
import { stepClock, type StepDue } from './step-clock.js';

/** The file's name in data_dir (config/data-files.ts reserves it). */
export const SEARCH_WORDS_FILE = 'blog-search-words.bin';

/** Bumped whenever the layout, or what a word is, changes. */
const FORMAT = 2;

/** The checksum's bytes at the end. */
const CHECKSUM_BYTES = 20;

/** Bytes of the file's large arrays read between two pauses. */
const BYTES_PER_SLICE = 1 << 20;

/** Bytes of the file read at once for its small fields. */
const WINDOW_BYTES = 64 * 1024;

/** Bytes of words in a piece. */
const WORDS_PIECE_BYTES = 64 * 1024;

/** A code unit of a surrogate pair that is not part of one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Records, and words, made between two pauses: each slice is one buffer of some 200 KB, soon collected. */
const RECORDS_PER_SLICE = 256;
const WORDS_PER_SLICE = 4096;

/**
 * Bytes of a large array written between two pauses: hashed and handed to the write in about a millisecond, as a
 * step of the index build takes, since a request waits for the step under way (a first start writes the file while
 * the first queries come).
 */
const BYTES_PER_WRITE_SLICE = 1 << 18;

/** What the words were read under (the load cache's key): a file written under any other is not used. */
export type SearchWordsKey = CacheKey;

export interface SearchWordsStore {
  /** What the file holds, read a slice at a time and pausing whenever `due()` says so; null when there is no usable file. */
  read(due: StepDue): Generator<void, SavedWords | null>;
  /** Replaces the file with `index`'s words, made a slice at a time with `pause()` in between. */
  write(index: SearchIndex, pause: () => Promise<unknown>): Promise<void>;
}

/**
 * The words file at `file`; `windowBytes` is how much of it is read at once for its small fields (less in tests, to
 * read over many windows). Its large arrays are read straight into arrays of their own.
 */
export function createSearchWordsStore(file: string, key: SearchWordsKey, windowBytes = WINDOW_BYTES): SearchWordsStore {
  return {
    *read(due) {
      let descriptor: number;
      try {
        descriptor = openSync(file, 'r');
      } catch {
        return null;
      }
      try {
        const size = fstatSync(descriptor).size;
        return yield* decodeSearchWords((into, offset, length, position) => readSync(descriptor, into, offset, length, position), size, key, due, windowBytes);
      } catch {
        return null;
      } finally {
        closeSync(descriptor);
      }
    },
    async write(index, pause) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomically(file, encodeSearchWords(index, key, pause));
    },
  };
}

/**
 * The file's bytes for `index`, in pieces. Words no post holds any more (their posts were edited or removed) are
 * left out and the others numbered again in the same order, so that the lists stay ascending and the file does
 * not grow from one start to the next; the posting lists of the words left out are empty, so the others' bytes
 * stay as they are, and the trigram index, which lists words by number, is then built again over the words kept.
 * When they are few (an eighth of the index's words at most) and the index's trigram index holds every word, they
 * stay instead, and the file takes that trigram index as it is.
 */
export async function* encodeSearchWords(index: SearchIndex, key: SearchWordsKey, pause: () => Promise<unknown>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(`${JSON.stringify({ format: FORMAT, key })}\n`);
  const checksum = createHash('sha1');
  const hashed = (bytes: Uint8Array): Uint8Array => {
    checksum.update(bytes);
    return bytes;
  };
  const words = index.store.table.words;
  const renumbered = new Int32Array(words.length).fill(-1);
  let scratch: Uint32Array = new Uint32Array(256);
  for (let position = 0; position < index.postWords.length; position += 1) {
    const list = index.postWords[position]!;
    const decoded = decodeInto(list, 0, list.length, scratch);
    scratch = decoded.values;
    for (let at = 0; at < decoded.count; at += 1) renumbered[scratch[at]!] = 0;
    if (position % RECORDS_PER_SLICE === RECORDS_PER_SLICE - 1) await pause();
  }
  // The words of the index, and how many of them its posts hold.
  const wordCount = index.offsets.length - 1;
  let held = 0;
  for (let number = 0; number < wordCount; number += 1) if (renumbered[number] === 0) held += 1;
  const kept: string[] = [];
  if (index.vocabulary.texts.length === wordCount && (wordCount - held) * 8 <= wordCount) {
    // A few words held by no post (a first start's drafts, say) stay, as they are numbered: the trigram index is
    // written as it is rather than built again while the first queries come. Past an eighth they are left out.
    for (let number = 0; number < wordCount; number += 1) renumbered[number] = kept.push(words[number]!) - 1;
  } else {
    for (let number = 0; number < words.length; number += 1) if (renumbered[number] === 0) renumbered[number] = kept.push(words[number]!) - 1;
  }
  const encoding = kept.some((word) => LONE_SURROGATE.test(word)) ? 16 : 8;
  const unitBytes = encoding === 8 ? 'utf8' : 'utf16le';
  let wordBytes = 0;
  for (const word of kept) wordBytes += Buffer.byteLength(word, unitBytes) + (encoding === 8 ? 1 : 2);
  yield hashed(uint32s(kept.length, wordBytes, encoding));
  // In slices, as the records: the whole table at once would be a string and a buffer of megabytes more to collect.
  for (let start = 0; start < kept.length; start += WORDS_PER_SLICE) {
    await pause();
    yield hashed(Buffer.from(`${kept.slice(start, start + WORDS_PER_SLICE).join('\n')}\n`, unitBytes));
  }
  let records = 0;
  for (const post of index.posts) if (post.searchKey !== undefined) records += 1;
  yield hashed(uint32s(records));
  // Whether every word kept has the number it had: then the lists are written as they are.
  const unchanged = kept.length === wordCount || kept.length === words.length;
  for (let start = 0; start < index.posts.length; start += RECORDS_PER_SLICE) {
    await pause();
    const slice: Array<{ key: string; list: Uint8Array }> = [];
    let size = 0;
    for (let position = start; position < Math.min(index.posts.length, start + RECORDS_PER_SLICE); position += 1) {
      const postKey = index.posts[position]!.searchKey;
      if (postKey === undefined) continue;
      let list = index.postWords[position]!;
      if (!unchanged) {
        const decoded = decodeInto(list, 0, list.length, scratch);
        scratch = decoded.values;
        for (let at = 0; at < decoded.count; at += 1) scratch[at] = renumbered[scratch[at]!]!;
        list = encodeAscending(scratch.subarray(0, decoded.count));
      }
      slice.push({ key: postKey, list });
      size += 8 + Buffer.byteLength(postKey) + list.length;
    }
    // One buffer per slice, written in place.
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    for (const { key: postKey, list } of slice) {
      const keyLength = bytes.write(postKey, at + 4);
      bytes.writeUInt32LE(keyLength, at);
      at += 4 + keyLength;
      at = bytes.writeUInt32LE(list.length, at);
      bytes.set(list, at);
      at += list.length;
    }
    yield hashed(bytes);
  }
  // The index itself when the records are every post of it, in its order (a restart then lays out nothing).
  if (records !== index.posts.length) yield hashed(uint32s(0));
  else {
    yield hashed(uint32s(1, kept.length));
    for await (const piece of listsBytes(keptLists(index, renumbered, kept.length), pause)) yield hashed(piece);
    // Its trigram index lists words by the numbers they had, and only those numbered when it was built: when words
    // were left out or came since (edits), one over the words kept is built for the file, so that a restart has it.
    let vocabulary = index.vocabulary;
    if (!unchanged || vocabulary.texts.length !== kept.length) {
      const steps = gramIndexSteps(kept, createGramDictionary(), stepClock());
      let step = steps.next();
      for (; !step.done; step = steps.next()) await pause();
      vocabulary = step.value;
    }
    yield hashed(uint32s(1));
    yield hashed(gramsBytes(vocabulary.dictionary));
    yield hashed(uint32s(vocabulary.offsets.length - 1));
    for await (const piece of listsBytes(vocabulary, pause)) yield hashed(piece);
  }
  yield checksum.digest();
}

/** The posting lists of `index` under the numbers `renumbered` gives the `count` words kept: the same bytes. */
function keptLists(index: SearchIndex, renumbered: Int32Array, count: number): PostingLists {
  if (index.offsets.length === count + 1) return index;
  const offsets = new Uint32Array(count + 1);
  for (let number = 0; number + 1 < index.offsets.length; number += 1) {
    // A word no post of the index holds has an empty list: leaving it out moves no byte.
    if (renumbered[number]! >= 0) offsets[renumbered[number]! + 1] = index.offsets[number + 1]!;
  }
  return { offsets, bytes: index.bytes };
}

/** The offsets of `lists`, the bytes' length and the bytes, a slice at a time. */
async function* listsBytes(lists: PostingLists, pause: () => Promise<unknown>): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < lists.offsets.length; start += BYTES_PER_WRITE_SLICE / 4) {
    if (start > 0) await pause();
    yield uint32Array(lists.offsets.subarray(start, start + BYTES_PER_WRITE_SLICE / 4));
  }
  yield uint32s(lists.bytes.length);
  for (let start = 0; start < lists.bytes.length; start += BYTES_PER_WRITE_SLICE) {
    await pause();
    yield lists.bytes.subarray(start, start + BYTES_PER_WRITE_SLICE);
  }
}

/**
 * What numbers the grams: the dictionary's size, its unigram and bigram tables' entries in use as pairs of a slot
 * (a unigram's unit, or 128 and a bigram's index) and the table's value, and its other grams as pairs of a float64
 * key and a number.
 */
function gramsBytes(dictionary: GramDictionary): Buffer {
  const short: Array<[number, number]> = [];
  dictionary.unigrams.forEach((value, slot) => value !== 0 && short.push([slot, value]));
  dictionary.bigrams.forEach((value, slot) => value !== 0 && short.push([128 + slot, value]));
  const wide = wideGramEntries(dictionary);
  const bytes = Buffer.alloc(12 + 8 * short.length + 12 * wide.length);
  let at = bytes.writeUInt32LE(dictionary.size, 0);
  at = bytes.writeUInt32LE(short.length, at);
  for (const [slot, value] of short) at = bytes.writeUInt32LE(value, bytes.writeUInt32LE(slot, at));
  at = bytes.writeUInt32LE(wide.length, at);
  for (const [wideKey, number] of wide) at = bytes.writeUInt32LE(number, bytes.writeDoubleLE(wideKey, at));
  return bytes;
}

function uint32s(...values: number[]): Buffer {
  return uint32Array(values);
}

function uint32Array(values: ArrayLike<number>): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  for (let at = 0; at < values.length; at += 1) bytes.writeUInt32LE(values[at]!, 4 * at);
  return bytes;
}

/** Header bytes looked at for the first line's end. */
const HEADER_MAX_BYTES = 64 * 1024;

/** Reads `length` bytes at `position` of the file into `into` from `offset`; how many it read (readSync's shape). */
export type ReadBytes = (into: Uint8Array, offset: number, length: number, position: number) => number;

/** Reads a file front to back: small fields through a window, large arrays straight into their own, each byte hashed once. */
class Reader {
  at: number;
  private window: Buffer;
  private windowAt = 0;
  private windowEnd = 0;
  readonly checksum = createHash('sha1');

  constructor(
    private readonly read: ReadBytes,
    start: number,
    /** Where the checksum starts. */
    readonly end: number,
    windowBytes: number,
  ) {
    this.at = start;
    this.window = Buffer.allocUnsafe(windowBytes);
  }

  /** The next `length` bytes as a view of the window (valid until the next call), without taking them; null past the end. */
  peek(length: number): Buffer | null {
    if (this.at + length > this.end) return null;
    if (this.at < this.windowAt || this.at + length > this.windowEnd) {
      if (length > this.window.length) this.window = Buffer.allocUnsafe(length);
      const last = Math.min(this.end, this.at + this.window.length);
      this.windowAt = this.at;
      this.windowEnd = this.at;
      while (this.windowEnd < last) {
        const count = this.read(this.window, this.windowEnd - this.at, last - this.windowEnd, this.windowEnd);
        if (count === 0) return null;
        this.windowEnd += count;
      }
    }
    return this.window.subarray(this.at - this.windowAt, this.at - this.windowAt + length);
  }

  /** The next `length` bytes, taken (hashed); a view valid until the next call, or null past the end. */
  take(length: number): Buffer | null {
    const bytes = this.peek(length);
    if (bytes === null) return null;
    this.checksum.update(bytes);
    this.at += length;
    return bytes;
  }

  uint32(): number | null {
    return this.take(4)?.readUInt32LE(0) ?? null;
  }

  /** The next `length` bytes into `into` from `offset`, a slice at a time, pausing whenever `due()` says so. */
  *takeInto(into: Uint8Array, offset: number, length: number, due: StepDue): Generator<void, boolean> {
    if (this.at + length > this.end) return false;
    // What the window holds already is taken from it.
    const buffered = this.at >= this.windowAt && this.at < this.windowEnd ? Math.min(length, this.windowEnd - this.at) : 0;
    if (buffered > 0) into.set(this.take(buffered)!, offset);
    for (let done = buffered; done < length; ) {
      const count = this.read(into, offset + done, Math.min(BYTES_PER_SLICE, length - done), this.at);
      if (count === 0) return false;
      this.checksum.update(into.subarray(offset + done, offset + done + count));
      this.at += count;
      done += count;
      if (due()) yield;
    }
    return true;
  }
}

/** Small arrays carved out of a few large buffers: 100,000 posts' lists, each a buffer of its own, took a second. */
function createArena(): (bytes: Uint8Array) => Uint8Array {
  let chunk = new Uint8Array(0);
  let used = 0;
  return (bytes) => {
    if (bytes.length > ARENA_BYTES / 4) return new Uint8Array(bytes);
    if (used + bytes.length > chunk.length) {
      chunk = new Uint8Array(ARENA_BYTES);
      used = 0;
    }
    const copy = chunk.subarray(used, used + bytes.length);
    copy.set(bytes);
    used += bytes.length;
    return copy;
  };
}

/** Bytes of each buffer the posts' lists are copied into. */
const ARENA_BYTES = 1 << 20;

/**
 * What a file of `size` bytes written under `key` holds, read front to back through `read` and pausing whenever
 * `due()` says so; null for any other key, for bytes not laid out as encodeSearchWords lays them out, down to the
 * last one, or whose checksum differs (checked once the rest is read: nothing of such a file is used).
 */
export function* decodeSearchWords(read: ReadBytes, size: number, key: SearchWordsKey, due: StepDue = () => false, windowBytes = WINDOW_BYTES): Generator<void, SavedWords | null> {
  const head = Buffer.allocUnsafe(Math.min(size, HEADER_MAX_BYTES));
  const headBytes = head.length === 0 ? 0 : read(head, 0, head.length, 0);
  const headerEnd = head.subarray(0, headBytes).indexOf(0x0a);
  if (headerEnd === -1 || !isHeaderFor(head.toString('utf8', 0, headerEnd), key)) return null;
  const end = size - CHECKSUM_BYTES;
  if (end < headerEnd + 1) return null;
  const reader = new Reader(read, headerEnd + 1, end, Math.max(windowBytes, 16));
  const count = reader.uint32();
  const wordBytes = reader.uint32();
  const encoding = reader.uint32();
  if (count === null || wordBytes === null || !(encoding === 8 || (encoding === 16 && wordBytes % 2 === 0)) || reader.at + wordBytes > end) return null;
  // The words in pieces of 64 KB or so, each cut after a newline: the table as one string would be one large block
  // of memory, and a piece is what a store takes in at once (search-index.ts adoptSavedWordsSteps).
  const words: string[] = [];
  const unitBytes = encoding === 8 ? 1 : 2;
  for (const wordsEnd = reader.at + wordBytes; reader.at < wordsEnd; ) {
    let length = Math.min(WORDS_PIECE_BYTES, wordsEnd - reader.at);
    let cut = afterLastNewline(reader.peek(length), unitBytes);
    // A word longer than the piece: a larger one, as large as it takes.
    while (cut === 0 && reader.at + length < wordsEnd) {
      length = Math.min(length * 2, wordsEnd - reader.at);
      cut = afterLastNewline(reader.peek(length), unitBytes);
    }
    if (cut === 0) return null;
    words.push(reader.take(cut)!.toString(encoding === 8 ? 'utf8' : 'utf16le'));
    if (due()) yield;
  }
  const records = reader.uint32();
  // A record takes 8 bytes at least.
  if (records === null || 8 * records > end - reader.at) return null;
  const lists = new Map<string, Uint8Array>();
  const keep = createArena();
  for (let record = 0; record < records; record += 1) {
    const keyBytes = reader.uint32();
    const postKey = keyBytes === null ? undefined : reader.take(keyBytes)?.toString('utf8');
    const listBytes = reader.uint32();
    const list = listBytes === null ? null : reader.take(listBytes);
    if (postKey === undefined || list === null || !isListBelow(list, 0, list.length, count) || lists.has(postKey)) return null;
    lists.set(postKey, keep(list));
    if ((record & 255) === 255 && due()) yield;
  }
  const flag = reader.uint32();
  let index: SavedIndex | undefined;
  if (flag === 1) {
    if (reader.uint32() !== count) return null;
    const postings = yield* readLists(reader, count, due);
    const gramsFlag = reader.uint32();
    if (postings === null || (gramsFlag !== 0 && gramsFlag !== 1)) return null;
    index = { postings };
    if (gramsFlag === 1) {
      const grams = readGrams(reader);
      const gramLists = grams === null ? null : reader.uint32();
      const vocabulary = gramLists === null || gramLists > grams!.size ? null : yield* readLists(reader, gramLists, due);
      if (vocabulary === null) return null;
      index.vocabulary = { lists: vocabulary, grams: grams! };
    }
  } else if (flag !== 0) return null;
  if (reader.at !== end) return null;
  const checksum = Buffer.allocUnsafe(CHECKSUM_BYTES);
  if (read(checksum, 0, CHECKSUM_BYTES, end) !== CHECKSUM_BYTES || !reader.checksum.digest().equals(checksum)) return null;
  return { words, count, lists, ...(index ? { index } : {}) };
}

/** `count` lists laid out as listsBytes writes them, their bytes read into a buffer of their own; null when their offsets do not fit their bytes. */
function* readLists(reader: Reader, count: number, due: StepDue): Generator<void, PostingLists | null> {
  if (reader.at + 4 * (count + 2) > reader.end) return null;
  const offsets = new Uint32Array(count + 1);
  for (let key = 0; key <= count; ) {
    const length = Math.min(count + 1 - key, WINDOW_BYTES / 4);
    const span = reader.take(4 * length)!;
    for (let at = 0; at < length; at += 1) offsets[key + at] = span.readUInt32LE(4 * at);
    key += length;
  }
  const byteCount = reader.uint32();
  if (offsets[0] !== 0 || offsets[count] !== byteCount) return null;
  for (let key = 0; key < count; key += 1) if (offsets[key]! > offsets[key + 1]!) return null;
  const bytes = new Uint8Array(byteCount);
  return (yield* reader.takeInto(bytes, 0, byteCount, due)) ? { offsets, bytes } : null;
}

/** The dictionary gramsBytes wrote; null when a number in it is out of range. */
function readGrams(reader: Reader): SavedGrams | null {
  const size = reader.uint32();
  const shortCount = reader.uint32();
  if (size === null || shortCount === null || reader.at + 8 * shortCount > reader.end) return null;
  const unigrams = new Int32Array(128);
  const bigrams = new Int32Array(16384);
  for (let pair = 0; pair < shortCount; pair += 1) {
    const bytes = reader.take(8)!;
    const slot = bytes.readUInt32LE(0);
    const value = bytes.readUInt32LE(4);
    // A table holds a gram's number + 1.
    if (value < 1 || value > size || slot >= 128 + 16384) return null;
    if (slot < 128) unigrams[slot] = value;
    else bigrams[slot - 128] = value;
  }
  const wideCount = reader.uint32();
  if (wideCount === null || reader.at + 12 * wideCount > reader.end) return null;
  const wide: Array<[number, number]> = [];
  for (let pair = 0; pair < wideCount; pair += 1) {
    const bytes = reader.take(12)!;
    const number = bytes.readUInt32LE(8);
    if (number >= size || unitsOfWideKey(bytes.readDoubleLE(0)) === null) return null;
    wide.push([bytes.readDoubleLE(0), number]);
  }
  return { unigrams, bigrams, wide, size };
}

/** Where the bytes after `span`'s last newline (in units of `unitBytes`) start; 0 when it holds none. */
function afterLastNewline(span: Buffer | null, unitBytes: number): number {
  if (span === null) return 0;
  for (let at = span.lastIndexOf(0x0a); at !== -1; at = at === 0 ? -1 : span.lastIndexOf(0x0a, at - 1)) {
    if (unitBytes === 1 || (at % 2 === 0 && span[at + 1] === 0)) return at + unitBytes;
  }
  return 0;
}

/** decodeSearchWords of bytes in memory, at once. */
export function readSearchWords(bytes: Buffer, key: SearchWordsKey): SavedWords | null {
  const read: ReadBytes = (into, offset, length, position) => {
    const count = Math.max(0, Math.min(length, bytes.length - position));
    into.set(bytes.subarray(position, position + count), offset);
    return count;
  };
  const steps = decodeSearchWords(read, bytes.length, key);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

function isHeaderFor(line: string, key: SearchWordsKey): boolean {
  try {
    return isCacheHeader(JSON.parse(line), FORMAT, key);
  } catch {
    return false;
  }
}
