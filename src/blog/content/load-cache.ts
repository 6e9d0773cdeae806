// The load cache (docs/blog.md "The load cache"): what the library parsed of each post file, kept in
// data_dir/blog-cache.json beside the file's stamp (size, mtime, inode), so that a restart reads and parses only
// the files that changed. It never changes an answer: a record is used only for a file whose stamp is the same;
// a cache written for another content_dir, other site settings or another postbox, or one that is not valid
// JSON, is ignored whole; a record of the wrong shape is ignored and its file read.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { isCacheHeader } from '../../kit/files/cache-header.js';
import { fileSpans, indexOfByte, spansOf, WINDOW_BYTES, type ByteSpans } from '../../kit/files/file-spans.js';
import type { PostDate } from './dates.js';
import type { DerivedFields, LoadedPost, PostFields } from './loaded-post.js';

/** The cache's name in data_dir (config/data-files.ts reserves it). */
export const LOAD_CACHE_FILE = 'blog-cache.json';

/** Bumped whenever what a record holds, or how a post file is parsed, changes. */
const FORMAT = 2;

/** What the records were parsed under: a cache written under anything else is not used. */
export type LoadCacheKey = {
  /** postbox's version. */
  version: string;
  contentDir: string;
  defaultLanguage: string;
  baseUrl: string;
  /** The runtime's Unicode version: language codes and case folding follow it. */
  unicode: string;
};

/** A post as the cache keeps it: its fields, where its body starts, and its excerpt, reading time and digest if derived. */
export interface PostRecord extends PostFields {
  bodyStart: number;
  frontMatterExcerpt: string | null;
  derived: DerivedFields | null;
}

export type CachedOutcome = { ok: true; warnings: string[]; post: PostRecord } | { ok: false; reason: string };

export interface CacheRecord {
  stamp: string;
  outcome: CachedOutcome;
}

/** The records of a cache file by post file, unchecked (checkRecord checks one). */
export interface SavedRecords {
  get(file: string): unknown;
  /** Whether there is a record for `file` (unchecked: get() may still find it unusable). */
  has(file: string): boolean;
  /** Closes the file the records are read from, when there is one; get() finds nothing after. */
  release?(): void;
}

/** The load cache of one content_dir. */
export interface LoadCacheStore {
  /** The records in the file; none when there is no usable cache. */
  read(): SavedRecords;
  /**
   * Replaces the file with `records`, made and written a slice at a time so that requests keep flowing and the
   * whole text is never held at once (some 10 MB at 10,000 posts, which V8 would keep until its next full collection).
   */
  write(records: ReadonlyArray<[string, () => CacheRecord]>): Promise<void>;
}

/**
 * The store at `file` for content parsed under `key`; `windowBytes` is how much of it is read at once (less in
 * tests), `pause` what the write waits for between two slices (the next event-loop turn by default).
 */
export function createLoadCacheStore(file: string, key: LoadCacheKey, windowBytes = WINDOW_BYTES, pause: () => Promise<unknown> = () => yieldToEventLoop()): LoadCacheStore {
  return {
    read() {
      let descriptor: number;
      try {
        descriptor = openSync(file, 'r');
      } catch {
        return NO_RECORDS;
      }
      // The file is read through a small window as its records are asked for (file-spans.ts), so it stays open
      // until the library releases the records.
      let open = true;
      const release = () => {
        if (open) closeSync(descriptor);
        open = false;
      };
      try {
        const records = decodeSpans(fileSpans(descriptor, fstatSync(descriptor).size, windowBytes), key);
        return {
          get: (name) => (open ? records.get(name) : undefined),
          has: (name) => records.has(name),
          release,
        };
      } catch {
        release();
        return NO_RECORDS;
      }
    },
    async write(records) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomically(file, encodeCache(records, key, pause));
    },
  };
}

/**
 * Records serialised between two pauses: some 1-2 ms of work, as a step of the `q` index build takes, since a
 * request waits for the step under way (a first start writes the file while the first queries come).
 */
const RECORDS_PER_SLICE = 250;

/** The cache file's text, in pieces: the key, then one record per file (each made when its slice is). */
export async function* encodeCache(records: ReadonlyArray<[string, () => CacheRecord]>, key: LoadCacheKey, pause: () => Promise<unknown>): AsyncGenerator<string> {
  // One record a line, between a first line and a last one of their own: decodeCache reads them one by one.
  yield `{"format":${FORMAT},"key":${JSON.stringify(key)},"files":{\n`;
  for (let start = 0; start < records.length; start += RECORDS_PER_SLICE) {
    const pieces = records.slice(start, start + RECORDS_PER_SLICE).map(([file, record]) => `${JSON.stringify(file)}:${JSON.stringify(record())}`);
    yield `${start === 0 ? '' : ',\n'}${pieces.join(',\n')}`;
    await pause();
  }
  yield '\n}}\n';
}

/** decodeSpans of bytes in memory. */
export function decodeCache(bytes: Buffer, key: LoadCacheKey): SavedRecords {
  return decodeSpans(spansOf(bytes), key);
}

/**
 * The records of a cache file written under `key`; none for any other key, or bytes that are not JSON. A file as
 * encodeCache lays it out is not parsed whole (at 100,000 posts its text and its records would take some 270 MB
 * at once), nor read whole (file-spans.ts): its lines are found, and each record is read and parsed when the
 * library asks for it. Any other layout of the same JSON is parsed whole.
 */
function decodeSpans(source: ByteSpans, key: LoadCacheKey): SavedRecords {
  return decodeByLines(source, key) ?? decodeWhole(source.span(0, source.size)!.toString('utf8'), key);
}

const NO_RECORDS: SavedRecords = new Map();
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const CLOSING = 0x7d;

function decodeWhole(text: string, key: LoadCacheKey): SavedRecords {
  const parsed = parseOrUndefined(text);
  if (!isCacheHeader(parsed, FORMAT, key) || !isObject(parsed.files)) return NO_RECORDS;
  return new Map(Object.entries(parsed.files));
}

/** encodeCache's layout, record places by file; null when `source` is laid out otherwise. */
function decodeByLines(source: ByteSpans, key: LoadCacheKey): SavedRecords | null {
  const headerEnd = indexOfByte(source, NEWLINE, 0);
  if (headerEnd === -1) return null;
  const header = source.span(0, headerEnd)!.toString('utf8');
  if (!header.endsWith('"files":{')) return null;
  const parsed = parseOrUndefined(`${header}}}`);
  if (parsed === undefined) return null;
  if (!isCacheHeader(parsed, FORMAT, key)) return NO_RECORDS;
  const places = new Map<string, { start: number; end: number }>();
  for (let start = headerEnd + 1; ; ) {
    const end = indexOfByte(source, NEWLINE, start);
    if (end === -1) return null;
    const line = source.span(start, end - start)!;
    if (line[0] === CLOSING) {
      const last = line.length === 2 && line[1] === CLOSING && end + 1 === source.size;
      return last ? { get: (file) => recordAt(source, places.get(file)), has: (file) => places.has(file) } : null;
    }
    // `"file":{...}` then a comma but on the last record. A file name holds no raw quote: the first one not
    // escaped by a backslash ends it (no byte of a multi-byte UTF-8 character is a quote or a backslash).
    if (line[0] !== QUOTE) return null;
    let nameEnd = line.indexOf(QUOTE, 1);
    while (nameEnd !== -1 && isEscaped(line, nameEnd)) nameEnd = line.indexOf(QUOTE, nameEnd + 1);
    if (nameEnd === -1 || line[nameEnd + 1] !== COLON) return null;
    const file = parseOrUndefined(line.toString('utf8', 0, nameEnd + 1));
    if (typeof file !== 'string') return null;
    places.set(file, { start: start + nameEnd + 2, end: line[line.length - 1] === COMMA ? end - 1 : end });
    start = end + 1;
  }
}

/** Whether the quote at `at` follows an odd run of backslashes. */
function isEscaped(bytes: Buffer, at: number): boolean {
  let backslashes = 0;
  while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
  return backslashes % 2 === 1;
}

/** The record at `place`, parsed; undefined (its file is read) when there is none or it is not JSON. */
function recordAt(source: ByteSpans, place: { start: number; end: number } | undefined): unknown {
  const bytes = place === undefined ? null : source.span(place.start, place.end - place.start);
  return bytes === null ? undefined : parseOrUndefined(bytes.toString('utf8'));
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `value` as a record for a file with `stamp`, or null when it is for another stamp or not of the right shape. */
export function checkRecord(value: unknown, stamp: string): CacheRecord | null {
  if (!isObject(value) || value.stamp !== stamp || !isObject(value.outcome)) return null;
  const { outcome } = value;
  if (outcome.ok === false) return typeof outcome.reason === 'string' ? { stamp, outcome: { ok: false, reason: outcome.reason } } : null;
  if (outcome.ok !== true || !isStringArray(outcome.warnings) || !isPostRecord(outcome.post)) return null;
  return { stamp, outcome: { ok: true, warnings: outcome.warnings, post: outcome.post } };
}

/** What the cache keeps of a post. */
export function recordOf(post: LoadedPost): PostRecord {
  const { file, slug, lang, hasLanguageSuffix, title, date, updated, draft, tags, allLangs, rawHtml, comments, newsletter, author, fediverseCreator, cover } = post;
  return {
    file,
    slug,
    lang,
    hasLanguageSuffix,
    title,
    date,
    updated,
    draft,
    tags,
    allLangs,
    rawHtml,
    comments,
    newsletter,
    author,
    fediverseCreator,
    cover,
    bodyStart: post.source.bodyStart,
    frontMatterExcerpt: post.source.frontMatterExcerpt ?? null,
    derived: post.knownDerived ?? null,
  };
}

function isPostRecord(value: unknown): value is PostRecord {
  if (!isObject(value)) return false;
  const { cover, derived } = value;
  return (
    typeof value.file === 'string' &&
    typeof value.slug === 'string' &&
    typeof value.lang === 'string' &&
    typeof value.hasLanguageSuffix === 'boolean' &&
    typeof value.title === 'string' &&
    isPostDate(value.date) &&
    (value.updated === null || isPostDate(value.updated)) &&
    typeof value.draft === 'boolean' &&
    isStringArray(value.tags) &&
    typeof value.allLangs === 'boolean' &&
    typeof value.rawHtml === 'boolean' &&
    typeof value.comments === 'boolean' &&
    typeof value.newsletter === 'boolean' &&
    isNullableString(value.author) &&
    isNullableString(value.fediverseCreator) &&
    (cover === null || (isObject(cover) && typeof cover.url === 'string' && isNullableString(cover.alt) && Object.keys(cover).length === 2)) &&
    Number.isSafeInteger(value.bodyStart) &&
    (value.bodyStart as number) >= 0 &&
    isNullableString(value.frontMatterExcerpt) &&
    (derived === null || (isObject(derived) && typeof derived.excerpt === 'string' && Number.isSafeInteger(derived.readingTime) && typeof derived.digest === 'string'))
  );
}

function isPostDate(value: unknown): value is PostDate {
  return isObject(value) && typeof value.day === 'string' && typeof value.text === 'string' && typeof value.rfc3339 === 'string' && Number.isFinite(value.time);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
