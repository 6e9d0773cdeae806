// Keeps the parsed posts of content_dir: each refresh re-reads only files whose stamp (size, mtime, inode)
// changed, and logs one warning per broken file when it is first seen or changes (docs/blog.md "Changes are
// picked up on their own").
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../kit/log.js';
import { readPostFile, type PostFileRead } from './body-reader.js';
import { checkRecord, recordOf, type CacheRecord, type LoadCacheStore, type SavedRecords } from './load-cache.js';
import { foldSearchText, LoadedPost } from './loaded-post.js';
import { parsePostFileName } from './file-name.js';
import { parsePostFile, type ParseContext, type ParseOutcome } from './parse-post.js';
import type { PostVersion } from './post.js';
import { scanContentDir, scanPaths, stampOf, type PathsScan } from './scan.js';
import { createSlugVersions, type ServedVersions } from './slug-versions.js';

export interface RefreshResult {
  /** Whether the set of posts differs from the previous refresh (always true the first time). */
  changed: boolean;
  /** The posts served, by slug: each slug's versions (one per language) in path order. */
  versions: ReadonlyMap<string, readonly PostVersion[]>;
  /** The slugs whose versions may differ from the previous refresh's (every slug the first time). */
  changedSlugs: ReadonlySet<string>;
  /** Every version served, in path order (made when first read). */
  readonly posts: PostVersion[];
  /** Files that are not served, in path order, with the reason the log gave (made when first read). */
  readonly skipped: SkippedFile[];
  /** Folders to watch for changes. */
  directories: string[];
  /** Files this refresh read and parsed, and files it took from the load cache instead. */
  filesRead: number;
  filesFromCache: number;
}

/** A post file that is skipped; `post` is there when it parsed but lost to a duplicate. */
export interface SkippedFile {
  file: string;
  reason: string;
  post?: PostVersion;
}

export interface PostLibrary {
  /**
   * Looks at content_dir again: everything, or with `changedPaths` (relative paths file events named) only those
   * paths, which at 100,000 posts spares seconds of listing and stat-ing. The first refresh looks at everything.
   * A look at named paths is done within the call; a look at everything lists content_dir over many event-loop
   * turns, and refreshes of named paths may run meanwhile: what they found is newer, and the look at everything
   * leaves it as it is. The posts are brought up to date at the end of each refresh, in one turn.
   */
  refresh(changedPaths?: readonly string[]): Promise<RefreshResult>;
  /** Writes the load cache when the posts changed since it was last read or written; a no-op without one. */
  saveCache(): Promise<void>;
}

interface CachedFile {
  stamp: string;
  outcome: ParseOutcome;
}

/** A file as the library keeps it: `look` numbers the refresh that last read it (refreshes count up as they start). */
interface KnownFile extends CachedFile {
  look: number;
}

/**
 * Told the searchText of each post the library reads from its file, while the text is at hand (the `q` index keeps
 * its words: catalog/search-indexer.ts takeText), so that nothing reads the file again for it.
 */
export type PostTextReader = (post: PostVersion, searchText: string) => void;

/**
 * A library over `contentDir`; nothing is read until the first refresh. With `loadCache`, the first refresh takes
 * each unchanged file's parse from it instead of reading the file (load-cache.ts).
 */
export function createPostLibrary(contentDir: string, context: ParseContext, logger: Logger, loadCache?: LoadCacheStore, onPostText?: PostTextReader): PostLibrary {
  const cache = new Map<string, KnownFile>();
  let looks = 0;
  /** Folders a look at named paths added or dropped, with that look's number. */
  const foldersLooked = new Map<string, number>();
  let cacheDirty = false;
  const slugVersions = createSlugVersions(logger, (file) => cache.get(file)!.stamp);
  /** The files that did not parse or could not be read, with the reason; `broken` is its copy as of the last refresh. */
  const brokenFiles = new Map<string, string>();
  let broken: ReadonlyMap<string, string> = new Map();
  let first = true;
  let missingReported = false;
  let directories = new Set<string>();

  /** Keeps `next` as what `file` holds (null: it is gone), and tells the slugs' versions. */
  function put(file: string, next: KnownFile | null): void {
    const before = cache.get(file)?.outcome;
    if (next) cache.set(file, next);
    else cache.delete(file);
    const after = next?.outcome;
    slugVersions.set(file, before?.ok ? before.post : undefined, after?.ok ? after.post : undefined);
    if (after && !after.ok) brokenFiles.set(file, after.reason);
    else if (before && !before.ok) brokenFiles.delete(file);
  }

  /** Reads and parses `file`; its stamp is the open file's, which is the text read (the scan's may be older). */
  function load(file: string): CachedFile | null {
    const filePath = path.join(contentDir, file);
    let read: PostFileRead | null;
    try {
      read = readPostFile(filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed since the scan listed it (the next refresh drops it), unless it is a link to nothing.
      if (code === 'ENOENT' && !isListed(filePath)) return null;
      const reason = `cannot read: ${code ?? (error as Error).message}`;
      logger.warn({ event: 'post_skipped', file, reason }, `post skipped: ${file}: ${reason}`);
      // Under the file's stamp, when it has one, it is not tried again until it changes.
      return { stamp: stampIfAny(filePath) ?? `unreadable:${reason}`, outcome: { ok: false, reason } };
    }
    if (read === null) return null; // not a file (a folder or a FIFO named like a post), as the scan passes over it
    const { text, stamp } = read;
    const outcome = parsePostFile(file, text, context, { path: filePath, stamp });
    if (outcome.ok && onPostText) onPostText(outcome.post, foldSearchText(outcome.post.title, text.slice(outcome.post.source.bodyStart)));
    reportOutcome(file, outcome);
    return { stamp, outcome };
  }

  /** The file's parse as the load cache has it for this stamp, logged as a parse is; null when it has none. */
  function restore(file: string, stamp: string, value: unknown): CachedFile | null {
    const record = value === undefined ? null : checkRecord(value, stamp);
    if (!record) return null;
    const cached = record.outcome;
    let outcome: ParseOutcome;
    if (!cached.ok) outcome = cached;
    else {
      const { bodyStart, frontMatterExcerpt, derived, ...fields } = cached.post;
      const source = { bodyStart, body: { path: path.join(contentDir, file), stamp }, frontMatterExcerpt: frontMatterExcerpt ?? undefined, markdown: context.markdown };
      outcome = { ok: true, warnings: cached.warnings, post: new LoadedPost({ ...fields, file }, source, { derived: derived ?? undefined }) };
    }
    reportOutcome(file, outcome);
    return { stamp, outcome };
  }

  function reportOutcome(file: string, outcome: ParseOutcome): void {
    if (!outcome.ok) logger.warn({ event: 'post_skipped', file, reason: outcome.reason }, `post skipped: ${file}: ${outcome.reason}`);
    else if (outcome.warnings.length > 0) {
      const reason = outcome.warnings.join('; ');
      logger.warn({ event: 'post_warning', file, reason }, `post warning: ${file}: ${reason}`);
    }
  }

  async function refresh(changedPaths?: readonly string[]): Promise<RefreshResult> {
    const accept = (file: string) => parsePostFileName(file, context.languageNames) !== null;
    const partial = changedPaths !== undefined && !first && !missingReported;
    const look = ++looks;
    // What a refresh that started after this one found (while this one listed content_dir) is newer than what
    // this one saw: such files are neither read again nor dropped, such folders neither added nor dropped.
    const newer = (file: string) => (cache.get(file)?.look ?? 0) > look;
    const newerFolder = (folder: string) => (foldersLooked.get(folder) ?? 0) > look;
    // The load cache is read once, for the first refresh; later ones compare stamps in memory. A file that is
    // neither known nor in the load cache is read whatever its stamp: the scan leaves it to the read.
    const saved: SavedRecords = first && loadCache ? loadCache.read() : new Map<string, unknown>();
    try {
      const needsStamp = (file: string) => cache.has(file) || saved.has(file);
      const scan = partial ? scanPaths(contentDir, changedPaths, accept) : await scanContentDir(contentDir, accept, needsStamp);
      if (!scan.found && !missingReported) {
        logger.warn({ event: 'content_dir_missing', content_dir: contentDir }, 'blog content_dir cannot be read; serving no posts until it exists');
      }
      missingReported = !scan.found;
      // A partial look answers for its covered paths only: the other cached files stay as they are.
      const inScope = partial ? coveredBy((scan as PathsScan).covered) : () => true;
      if (partial) {
        const covered = (scan as PathsScan).covered;
        for (const folder of [...directories]) {
          if (folder !== contentDir && covered.includes(path.basename(folder))) {
            directories.delete(folder);
            foldersLooked.set(folder, look);
          }
        }
        for (const folder of scan.directories) {
          directories.add(folder);
          foldersLooked.set(folder, look);
        }
      } else {
        const later = [...directories].filter(newerFolder);
        directories = new Set([...scan.directories.filter((folder) => !newerFolder(folder)), ...later]);
        for (const [folder, at] of foldersLooked) if (at <= look) foldersLooked.delete(folder);
      }
      let changed = first;
      const seen = new Set<string>();
      const stale: { file: string; stamp: string | null }[] = [];
      for (const { file, stamp } of scan.files) {
        seen.add(file);
        if (!newer(file) && (stamp === null || cache.get(file)?.stamp !== stamp)) stale.push({ file, stamp });
      }
      for (const { file, reason } of scan.unreadable) {
        seen.add(file);
        const stamp = `unreadable:${reason}`;
        if (newer(file) || cache.get(file)?.stamp === stamp) continue;
        logger.warn({ event: 'post_skipped', file, reason }, `post skipped: ${file}: ${reason}`);
        put(file, { stamp, outcome: { ok: false, reason }, look });
        changed = true;
      }
      let filesRead = 0;
      let filesFromCache = 0;
      for (const { file, stamp } of stale) {
        const restored = stamp === null ? null : restore(file, stamp, saved.get(file));
        const loaded = restored ?? load(file);
        if (loaded) put(file, { ...loaded, look });
        else seen.delete(file);
        changed = true;
        cacheDirty ||= restored === null;
        if (restored) filesFromCache += 1;
        else filesRead += 1;
      }
      for (const file of [...cache.keys()]) {
        if (!seen.has(file) && inScope(file) && !newer(file)) {
          put(file, null);
          changed = true;
          cacheDirty = true;
        }
      }
      first = false;
      const { served, changedSlugs } = slugVersions.settle();
      if (changed) broken = new Map(brokenFiles);
      return resultOf(served, broken, { changed, changedSlugs, directories: [...directories], filesRead, filesFromCache });
    } finally {
      // Records are read from the load cache's file while the refresh asks for them (load-cache.ts).
      saved.release?.();
    }
  }

  async function saveCache(): Promise<void> {
    if (!loadCache || !cacheDirty) return;
    cacheDirty = false;
    // The files as they are now; each record is made when its slice is written.
    const records: Array<[string, () => CacheRecord]> = [];
    for (const [file, { stamp, outcome }] of cache) {
      // An unreadable file is looked at again on each start.
      if (stamp.startsWith('unreadable:')) continue;
      records.push([file, () => ({ stamp, outcome: outcome.ok ? { ok: true, warnings: outcome.warnings, post: recordOf(outcome.post) } : outcome })]);
    }
    try {
      await loadCache.write(records);
    } catch (error) {
      cacheDirty = true;
      logger.warn({ event: 'blog_cache_not_written', reason: (error as Error).message }, 'blog load cache could not be written; the next start reads every post file');
    }
  }

  return { refresh, saveCache };
}

/** A refresh's result; its lists of every version and of the skipped files are made when first read. */
function resultOf(served: ServedVersions, broken: ReadonlyMap<string, string>, fields: Omit<RefreshResult, 'versions' | 'posts' | 'skipped'>): RefreshResult {
  let posts: PostVersion[] | undefined;
  let skipped: SkippedFile[] | undefined;
  return {
    ...fields,
    versions: served.versions,
    get posts() {
      return (posts ??= [...served.versions.values()].flat().sort(byFile));
    },
    get skipped() {
      return (skipped ??= [...[...broken].map(([file, reason]): SkippedFile => ({ file, reason })), ...[...served.duplicates.values()].flat()].sort(byFile));
    },
  };
}

function byFile(a: { file: string }, b: { file: string }): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

function stampIfAny(filePath: string): string | null {
  try {
    return stampOf(statSync(filePath, { bigint: true }));
  } catch {
    return null;
  }
}

/** Whether the folder still lists `filePath` (a link is listed whether or not what it names exists). */
function isListed(filePath: string): boolean {
  try {
    lstatSync(filePath);
    return true;
  } catch {
    return false;
  }
}

/** Whether a file (relative path) is one of `covered`, or inside one of them. */
function coveredBy(covered: readonly string[]): (file: string) => boolean {
  const paths = new Set(covered);
  return (file) => paths.has(file) || (file.includes('/') && paths.has(file.slice(0, file.indexOf('/'))));
}
