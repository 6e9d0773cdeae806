// The `q` index's words kept in data_dir (docs/blog.md "Start-up and the load cache"): the word table, and each indexed post's
// list of its words under the post's searchKey (its file and the file's stamp), so that the index after a restart
// reads only the post files that changed. Like the load cache it never changes an answer: a file written under
// another key, or that is not laid out as below down to its last byte, is not used; a list is used only for a
// post whose file has the same stamp.
//
// Layout: a first line of JSON ({"format", "key"}), then little-endian binary: the word count, the words' byte
// length, their encoding (8 or 16: UTF-8 unless a word holds a lone surrogate, which only UTF-16 keeps; UTF-8
// gives one-byte strings in memory for ASCII words, UTF-16 two) and the words, each followed by a newline, the
// number of records, and one record per post: its key's byte length, the key (UTF-8), its list's byte length and
// the list (posting-lists.ts encodeAscending), up to the last byte.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { isCacheHeader, type CacheKey } from '../../kit/files/cache-header.js';
import { fileSpans, spansOf, WINDOW_BYTES, type ByteSpans } from '../../kit/files/file-spans.js';
import { decodeInto, encodeAscending, isListBelow } from './posting-lists.js';
import type { SavedWords, SearchIndex } from './search-index.js';
import type { StepDue } from './step-clock.js';

/** The file's name in data_dir (config/data-files.ts reserves it). */
export const SEARCH_WORDS_FILE = 'blog-search-words.bin';

/** Bumped whenever the layout, or what a word is, changes. */
const FORMAT = 1;

/** A code unit of a surrogate pair that is not part of one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Records, and words, made between two pauses: each slice is one buffer of some 200 KB, soon collected. */
const RECORDS_PER_SLICE = 256;
const WORDS_PER_SLICE = 16_384;

/** What the words were read under (the load cache's key): a file written under any other is not used. */
export type SearchWordsKey = CacheKey;

export interface SearchWordsStore {
  /** The words in the file, read a window at a time and pausing whenever `due()` says so; null when there is no usable file. */
  read(due: StepDue): Generator<void, SavedWords | null>;
  /** Replaces the file with `index`'s words, made a slice at a time with `pause()` in between. */
  write(index: SearchIndex, pause: () => Promise<unknown>): Promise<void>;
}

/** The words file at `file`; `windowBytes` is how much of it is read at once (less in tests, to read over many windows). */
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
        return yield* decodeSearchWords(fileSpans(descriptor, fstatSync(descriptor).size, windowBytes), key, due);
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
 * not grow from one start to the next.
 */
export async function* encodeSearchWords(index: SearchIndex, key: SearchWordsKey, pause: () => Promise<unknown>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(`${JSON.stringify({ format: FORMAT, key })}\n`);
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
  const kept: string[] = [];
  for (let number = 0; number < words.length; number += 1) if (renumbered[number] === 0) renumbered[number] = kept.push(words[number]!) - 1;
  const encoding = kept.some((word) => LONE_SURROGATE.test(word)) ? 16 : 8;
  const unitBytes = encoding === 8 ? 'utf8' : 'utf16le';
  let wordBytes = 0;
  for (const word of kept) wordBytes += Buffer.byteLength(word, unitBytes) + (encoding === 8 ? 1 : 2);
  yield uint32s(kept.length, wordBytes, encoding);
  // In slices, as the records: the whole table at once would be a string and a buffer of megabytes more to collect.
  for (let start = 0; start < kept.length; start += WORDS_PER_SLICE) {
    await pause();
    yield Buffer.from(`${kept.slice(start, start + WORDS_PER_SLICE).join('\n')}\n`, unitBytes);
  }
  let records = 0;
  for (const post of index.posts) if (post.searchKey !== undefined) records += 1;
  yield uint32s(records);
  const unchanged = kept.length === words.length;
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
    yield bytes;
  }
}

function uint32s(...values: number[]): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  values.forEach((value, at) => bytes.writeUInt32LE(value, 4 * at));
  return bytes;
}

/** Header bytes looked at for the first line's end. */
const HEADER_MAX_BYTES = 64 * 1024;

/**
 * The words of a file written under `key`, read a record at a time and pausing whenever `due()` says so; null for any
 * other key, or for bytes not laid out as encodeSearchWords lays them out, down to the last one.
 */
export function* decodeSearchWords(source: ByteSpans, key: SearchWordsKey, due: StepDue = () => false): Generator<void, SavedWords | null> {
  const head = source.span(0, Math.min(source.size, HEADER_MAX_BYTES));
  const headerEnd = head?.indexOf(0x0a) ?? -1;
  if (headerEnd === -1 || !isHeaderFor(head!.toString('utf8', 0, headerEnd), key)) return null;
  let at = headerEnd + 1;
  const take = (length: number): Buffer | null => {
    const span = source.span(at, length);
    at += length;
    return span;
  };
  const uint32 = (): number | null => take(4)?.readUInt32LE(0) ?? null;
  const count = uint32();
  const wordBytes = uint32();
  const encoding = uint32();
  if (count === null || wordBytes === null || !(encoding === 8 || (encoding === 16 && wordBytes % 2 === 0))) return null;
  // The words in pieces of a window or so, each cut after a newline: the table as one string would be one large
  // block of memory (file-spans.ts), and a piece of it is read as well as the whole.
  const words: string[] = [];
  const unitBytes = encoding === 8 ? 1 : 2;
  for (const wordsEnd = at + wordBytes; at < wordsEnd; ) {
    let length = Math.min(WINDOW_BYTES, wordsEnd - at);
    let cut = afterLastNewline(source.span(at, length), unitBytes);
    // A word longer than the window: a larger span, as large as it takes.
    while (cut === 0 && at + length < wordsEnd) {
      length = Math.min(length * 2, wordsEnd - at);
      cut = afterLastNewline(source.span(at, length), unitBytes);
    }
    if (cut === 0) return null;
    words.push(source.span(at, cut)!.toString(encoding === 8 ? 'utf8' : 'utf16le'));
    at += cut;
    if (due()) yield;
  }
  const records = uint32();
  if (records === null) return null;
  const lists = new Map<string, Uint8Array>();
  for (let record = 0; record < records; record += 1) {
    const keyBytes = uint32();
    const postKey = keyBytes === null ? undefined : take(keyBytes)?.toString('utf8');
    const listBytes = uint32();
    const list = listBytes === null ? null : take(listBytes);
    if (postKey === undefined || list === null || !isListBelow(list, 0, list.length, count)) return null;
    // A copy of its own: the window is read over.
    lists.set(postKey, new Uint8Array(list));
    if ((record & 255) === 255 && due()) yield;
  }
  return at === source.size ? { words, count, lists } : null;
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
  const steps = decodeSearchWords(spansOf(bytes), key);
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
