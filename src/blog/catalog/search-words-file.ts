// The `q` index's words kept in data_dir (docs/blog.md "The load cache"): the word table, and each indexed post's
// list of its words under the post's searchKey (its file and the file's stamp), so that the index after a restart
// reads only the post files that changed. Like the load cache it never changes an answer: a file written under
// another key, or that is not laid out as below down to its last byte, is not used; a list is used only for a
// post whose file has the same stamp.
//
// Layout: a first line of JSON ({"format", "key"}), then little-endian binary: the word count, the words' byte
// length and the words (UTF-16, each followed by a newline: a word may hold any code unit but white space), the
// number of records, and one record per post: its key's byte length, the key (UTF-8), its list's byte length and
// the list (posting-lists.ts encodeAscending), up to the last byte.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../../files/atomic-file.js';
import { decodeInto, encodeAscending, isListBelow } from './posting-lists.js';
import type { SavedWords, SearchIndex } from './search-index.js';

/** The file's name in data_dir (config/data-files.ts reserves it). */
export const SEARCH_WORDS_FILE = 'blog-search-words.bin';

/** Bumped whenever the layout, or what a word is, changes. */
const FORMAT = 1;

/** Records made between two pauses. */
const RECORDS_PER_SLICE = 2000;

/** What the words were read under (the load cache's key): a file written under any other is not used. */
export type SearchWordsKey = Readonly<Record<string, string>>;

export interface SearchWordsStore {
  /** The words in the file, or null when there is no usable file. */
  read(): Promise<SavedWords | null>;
  /** Replaces the file with `index`'s words, made a slice at a time with `pause()` in between. */
  write(index: SearchIndex, pause: () => Promise<unknown>): Promise<void>;
}

export function createSearchWordsStore(file: string, key: SearchWordsKey): SearchWordsStore {
  return {
    async read() {
      try {
        return decodeSearchWords(await readFile(file), key);
      } catch {
        return null;
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
  const wordBytes = Buffer.from(kept.length === 0 ? '' : `${kept.join('\n')}\n`, 'utf16le');
  let records = 0;
  for (const post of index.posts) if (post.searchKey !== undefined) records += 1;
  yield Buffer.concat([uint32s(kept.length, wordBytes.length), wordBytes, uint32s(records)]);
  const unchanged = kept.length === words.length;
  for (let start = 0; start < index.posts.length; start += RECORDS_PER_SLICE) {
    await pause();
    const pieces: Uint8Array[] = [];
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
      const keyBytes = Buffer.from(postKey);
      pieces.push(uint32s(keyBytes.length), keyBytes, uint32s(list.length), list);
    }
    yield Buffer.concat(pieces);
  }
}

function uint32s(...values: number[]): Buffer {
  const bytes = Buffer.alloc(4 * values.length);
  values.forEach((value, at) => bytes.writeUInt32LE(value, 4 * at));
  return bytes;
}

/** The words of a file written under `key`; null for any other key, or for bytes not laid out as encodeSearchWords lays them out. */
export function decodeSearchWords(bytes: Buffer, key: SearchWordsKey): SavedWords | null {
  const headerEnd = bytes.indexOf(0x0a);
  if (headerEnd === -1 || !isHeaderFor(bytes.toString('utf8', 0, headerEnd), key)) return null;
  let at = headerEnd + 1;
  const uint32 = (): number | null => {
    if (at + 4 > bytes.length) return null;
    at += 4;
    return bytes.readUInt32LE(at - 4);
  };
  const count = uint32();
  const wordBytes = uint32();
  if (count === null || wordBytes === null || wordBytes % 2 !== 0 || at + wordBytes > bytes.length) return null;
  const words = bytes.toString('utf16le', at, at + wordBytes);
  at += wordBytes;
  const records = uint32();
  if (records === null) return null;
  const lists = new Map<string, Uint8Array>();
  for (let record = 0; record < records; record += 1) {
    const keyBytes = uint32();
    if (keyBytes === null || at + keyBytes > bytes.length) return null;
    const postKey = bytes.toString('utf8', at, at + keyBytes);
    at += keyBytes;
    const listBytes = uint32();
    if (listBytes === null || at + listBytes > bytes.length || !isListBelow(bytes, at, at + listBytes, count)) return null;
    // A copy of its own: the index keeps the lists, not the file's bytes.
    lists.set(postKey, Uint8Array.prototype.slice.call(bytes, at, at + listBytes));
    at += listBytes;
  }
  return at === bytes.length ? { words, count, lists } : null;
}

function isHeaderFor(line: string, key: SearchWordsKey): boolean {
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    return false;
  }
  if (typeof header !== 'object' || header === null) return false;
  const { format, key: written } = header as { format?: unknown; key?: unknown };
  if (format !== FORMAT || typeof written !== 'object' || written === null) return false;
  const entries = Object.entries(key);
  return entries.length === Object.keys(written).length && entries.every(([name, value]) => (written as Record<string, unknown>)[name] === value);
}
