// The load cache (docs/blog.md "The load cache"): what the library parsed of each post file, kept in
// data_dir/blog-cache.json beside the file's stamp (size, mtime, inode), so that a restart reads and parses only
// the files that changed. It never changes an answer: a record is used only for a file whose stamp is the same;
// a cache written for another content_dir, other site settings or another postbox, or one that is not valid
// JSON, is ignored whole; a record of the wrong shape is ignored and its file read.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { writeFileAtomically } from '../../files/atomic-file.js';
import type { PostDate } from './dates.js';
import type { DerivedFields, LoadedPost, PostFields } from './loaded-post.js';

/** The cache's name in data_dir (config/data-files.ts reserves it). */
export const LOAD_CACHE_FILE = 'blog-cache.json';

/** Bumped whenever what a record holds, or how a post file is parsed, changes. */
const FORMAT = 1;

/** What the records were parsed under: a cache written under anything else is not used. */
export interface LoadCacheKey {
  /** postbox's version. */
  version: string;
  contentDir: string;
  defaultLanguage: string;
  baseUrl: string;
  /** The runtime's Unicode version: language codes and case folding follow it. */
  unicode: string;
}

/** A post as the cache keeps it: its fields, where its body starts, and its excerpt and reading time if derived. */
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

/** The load cache of one content_dir. */
export interface LoadCacheStore {
  /** The records in the file, unchecked (checkRecord checks one); empty when there is no usable cache. */
  read(): Map<string, unknown>;
  /** Replaces the file with `records`, a slice at a time so that requests keep flowing. */
  write(records: ReadonlyArray<[string, CacheRecord]>): Promise<void>;
}

/** The store at `file` for content parsed under `key`. */
export function createLoadCacheStore(file: string, key: LoadCacheKey): LoadCacheStore {
  return {
    read() {
      try {
        return decodeCache(readFileSync(file, 'utf8'), key);
      } catch {
        return new Map();
      }
    },
    async write(records) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomically(file, await encodeCache(records, key, () => yieldToEventLoop()));
    },
  };
}

/** Records serialised between two pauses. */
const RECORDS_PER_SLICE = 2000;

/** The cache file's text: the key, then one record per file. */
export async function encodeCache(records: ReadonlyArray<[string, CacheRecord]>, key: LoadCacheKey, pause: () => Promise<unknown>): Promise<string> {
  const pieces: string[] = [];
  for (let start = 0; start < records.length; start += RECORDS_PER_SLICE) {
    for (const [file, record] of records.slice(start, start + RECORDS_PER_SLICE)) pieces.push(`${JSON.stringify(file)}:${JSON.stringify(record)}`);
    await pause();
  }
  return `{"format":${FORMAT},"key":${JSON.stringify(key)},"files":{${pieces.join(',\n')}}}\n`;
}

/** The records of a cache file's text written under `key`; empty for any other key or text. */
export function decodeCache(text: string, key: LoadCacheKey): Map<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Map();
  }
  if (!isObject(parsed) || parsed.format !== FORMAT || !isObject(parsed.key) || !isObject(parsed.files)) return new Map();
  const written = parsed.key;
  if ((Object.keys(key) as Array<keyof LoadCacheKey>).some((name) => written[name] !== key[name])) return new Map();
  return new Map(Object.entries(parsed.files));
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
  const { file, slug, lang, hasLanguageSuffix, title, date, updated, draft, tags, allLangs, author, fediverseCreator, cover } = post;
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
    isNullableString(value.author) &&
    isNullableString(value.fediverseCreator) &&
    (cover === null || (isObject(cover) && typeof cover.url === 'string' && isNullableString(cover.alt) && Object.keys(cover).length === 2)) &&
    Number.isSafeInteger(value.bodyStart) &&
    (value.bodyStart as number) >= 0 &&
    isNullableString(value.frontMatterExcerpt) &&
    (derived === null || (isObject(derived) && typeof derived.excerpt === 'string' && Number.isSafeInteger(derived.readingTime)))
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
