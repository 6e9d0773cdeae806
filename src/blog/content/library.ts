// Keeps the parsed posts of content_dir: each refresh re-reads only files whose stamp (size, mtime, inode)
// changed, and logs one warning per broken file when it is first seen or changes (docs/blog.md "Changes are
// picked up on their own").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../log.js';
import { readBodyAgain } from './body-reader.js';
import { parsePostFileName } from './file-name.js';
import { languageKey } from './language.js';
import { parsePostFile, type ParseContext, type ParseOutcome } from './parse-post.js';
import type { PostVersion } from './post.js';
import { scanContentDir } from './scan.js';

export interface RefreshResult {
  /** Whether the set of posts differs from the previous refresh (always true the first time). */
  changed: boolean;
  posts: PostVersion[];
  /** Files that are not served, in path order, with the reason the log gave. */
  skipped: SkippedFile[];
  /** Folders to watch for changes. */
  directories: string[];
}

/** A post file that is skipped; `post` is there when it parsed but lost to a duplicate. */
export interface SkippedFile {
  file: string;
  reason: string;
  post?: PostVersion;
}

export interface PostLibrary {
  refresh(): Promise<RefreshResult>;
}

interface CachedFile {
  stamp: string;
  outcome: ParseOutcome;
}

/** A library over `contentDir`; nothing is read until the first refresh. */
export function createPostLibrary(contentDir: string, context: ParseContext, logger: Logger): PostLibrary {
  const cache = new Map<string, CachedFile>();
  let reportedDuplicates = new Set<string>();
  let posts: PostVersion[] = [];
  let skipped: SkippedFile[] = [];
  let first = true;
  let missingReported = false;

  function load(file: string, stamp: string): CachedFile | null {
    let text: string;
    try {
      text = readFileSync(path.join(contentDir, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null; // removed since the scan: the next refresh drops it
      return { stamp, outcome: { ok: false, reason: `cannot read: ${code ?? (error as Error).message}` } };
    }
    const filePath = path.join(contentDir, file);
    const outcome = parsePostFile(file, text, context, (bodyStart) => readBodyAgain(filePath, stamp, bodyStart));
    if (!outcome.ok) logger.warn({ event: 'post_skipped', file, reason: outcome.reason }, `post skipped: ${file}: ${outcome.reason}`);
    else if (outcome.warnings.length > 0) {
      const reason = outcome.warnings.join('; ');
      logger.warn({ event: 'post_warning', file, reason }, `post warning: ${file}: ${reason}`);
    }
    return { stamp, outcome };
  }

  async function refresh(): Promise<RefreshResult> {
    const scan = await scanContentDir(contentDir, (file) => parsePostFileName(file, context.languageNames) !== null);
    if (!scan.found && !missingReported) {
      logger.warn({ event: 'content_dir_missing', content_dir: contentDir }, 'blog content_dir cannot be read; serving no posts until it exists');
    }
    missingReported = !scan.found;
    let changed = first;
    first = false;
    const seen = new Set<string>();
    const stale: { file: string; stamp: string }[] = [];
    for (const { file, stamp } of scan.files) {
      seen.add(file);
      if (cache.get(file)?.stamp !== stamp) stale.push({ file, stamp });
    }
    for (const { file, reason } of scan.unreadable) {
      seen.add(file);
      const stamp = `unreadable:${reason}`;
      if (cache.get(file)?.stamp === stamp) continue;
      logger.warn({ event: 'post_skipped', file, reason }, `post skipped: ${file}: ${reason}`);
      cache.set(file, { stamp, outcome: { ok: false, reason } });
      changed = true;
    }
    for (const { file, stamp } of stale) {
      const loaded = load(file, stamp);
      if (loaded) cache.set(file, loaded);
      else seen.delete(file);
      changed = true;
    }
    for (const file of [...cache.keys()]) {
      if (!seen.has(file)) {
        cache.delete(file);
        changed = true;
      }
    }
    if (changed) ({ posts, skipped } = dropDuplicates());
    return { changed, posts, skipped, directories: scan.directories };
  }

  // Two files for one slug and language (`a.md` and `a/index.md`, or a `lang` key that collides with a
  // suffix): the first path in sort order wins; the other is skipped with one warning.
  function dropDuplicates(): { posts: PostVersion[]; skipped: SkippedFile[] } {
    const kept = new Map<string, PostVersion>();
    const duplicates = new Set<string>();
    const skippedFiles: SkippedFile[] = [];
    const files = [...cache.keys()].sort();
    for (const file of files) {
      const outcome = cache.get(file)!.outcome;
      if (!outcome.ok) {
        skippedFiles.push({ file, reason: outcome.reason });
        continue;
      }
      const key = `${outcome.post.slug}\n${languageKey(outcome.post.lang)}`;
      const winner = kept.get(key);
      if (!winner) {
        kept.set(key, outcome.post);
        continue;
      }
      const reason = `duplicate of ${winner.file} (slug "${outcome.post.slug}", lang "${outcome.post.lang}")`;
      const report = `${file}\n${reason}\n${cache.get(file)!.stamp}`;
      duplicates.add(report);
      skippedFiles.push({ file, reason, post: outcome.post });
      if (!reportedDuplicates.has(report)) logger.warn({ event: 'post_skipped', file, reason }, `post skipped: ${file}: ${reason}`);
    }
    reportedDuplicates = duplicates;
    return { posts: [...kept.values()], skipped: skippedFiles };
  }

  return { refresh };
}
