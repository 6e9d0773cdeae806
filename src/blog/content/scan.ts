// Lists the candidate post files of content_dir with what tells whether they changed (size, mtime, inode).
// Plain synchronous system calls, in slices: stat-ing 10,000 files through the thread pool costs several
// times the CPU, and yielding between slices keeps requests flowing during a rescan. A post file that is a
// symbolic link counts only when it leads to a file inside content_dir, and links to folders are not followed
// (docs/blog.md "Where posts live"): the link is resolved only for names that are links, which readdir tells.
import { lstatSync, readdirSync, statSync, type BigIntStats, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { leadsOutsideContentDir, OUTSIDE_LINK_REASON } from './content-root.js';

/** Files stat-ed between two yields to the event loop. */
const SLICE = 500;

export interface FileStamp {
  /** Relative to content_dir, `/`-separated. */
  file: string;
  /**
   * Changes whenever the file's content may have: size, mtime (ns resolution where the OS has it), inode. Null
   * when the scan was told not to stat the file: it is read anyway, and its stamp taken from the open file.
   */
  stamp: string | null;
}

export interface ScanResult {
  /** Whether content_dir itself could be read. */
  found: boolean;
  files: FileStamp[];
  /** content_dir and its sub-folders: the folders to watch. */
  directories: string[];
  /** Markdown files that could not be examined, with the reason. */
  unreadable: { file: string; reason: string }[];
}

/**
 * Walks content_dir: `*.md` at the top, `*.md` one folder down (for `<slug>/index.md`); `accept` picks the
 * post file names among them. Hidden names are skipped. A file `needsStamp` says no to is not stat-ed (a first
 * start reads every file: a stat before each read would only repeat the read's own).
 */
export async function scanContentDir(root: string, accept: (file: string) => boolean, needsStamp: (file: string) => boolean = () => true): Promise<ScanResult> {
  const entries = list(root);
  if (!entries) return { found: false, files: [], directories: [], unreadable: [] };
  const result: ScanResult = { found: true, files: [], directories: [root], unreadable: [] };
  const candidates: string[] = [];
  /** Candidates that are symbolic links: kept only when they lead inside content_dir. */
  const links = new Set<string>();
  const consider = (entry: Dirent, file: string) => {
    if (entry.isDirectory() || !accept(file)) return;
    candidates.push(file);
    if (entry.isSymbolicLink()) links.add(file);
  };
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    // A link to a folder is not a directory entry here: its posts are not listed.
    if (entry.isDirectory()) {
      if (result.directories.length % SLICE === 0) await yieldToEventLoop();
      const folder = path.join(root, entry.name);
      const inner = list(folder);
      if (!inner) continue;
      result.directories.push(folder);
      for (const file of inner) consider(file, `${entry.name}/${file.name}`);
    } else {
      consider(entry, entry.name);
    }
  }
  for (const [index, file] of candidates.entries()) {
    if (index > 0 && index % SLICE === 0) await yieldToEventLoop();
    if (links.has(file) && leadsOutsideContentDir(root, path.join(root, file))) {
      result.unreadable.push({ file, reason: OUTSIDE_LINK_REASON });
      continue;
    }
    if (!needsStamp(file)) {
      result.files.push({ file, stamp: null });
      continue;
    }
    try {
      const info = statSync(path.join(root, file), { bigint: true });
      if (info.isFile()) result.files.push({ file, stamp: stampOf(info) });
    } catch (error) {
      result.unreadable.push({ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  return result;
}

/** A look at some paths only (scanPaths): what it found, and which paths and folders it answers for. */
export interface PathsScan extends ScanResult {
  /** The paths looked at: a cached file at one of them, or inside one that is a folder, and not found is gone. */
  covered: string[];
}

/**
 * Looks at `paths` alone (relative to root, `/`-separated, as file events name them), as scanContentDir would
 * see them: a top-level folder is listed, a post file is stat-ed, a path that is no longer there is covered but
 * not found. Paths deeper than one folder, or under a hidden name, are not post files and are passed over.
 */
export function scanPaths(root: string, paths: Iterable<string>, accept: (file: string) => boolean): PathsScan {
  const result: PathsScan = { found: true, files: [], directories: [], unreadable: [], covered: [] };
  const look = (file: string, isLink: boolean) => {
    if (isLink && leadsOutsideContentDir(root, path.join(root, file))) {
      result.unreadable.push({ file, reason: OUTSIDE_LINK_REASON });
      return;
    }
    try {
      const info = statSync(path.join(root, file), { bigint: true });
      if (info.isFile()) result.files.push({ file, stamp: stampOf(info) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') result.unreadable.push({ file, reason: `cannot read: ${code ?? (error as Error).message}` });
    }
  };
  for (const relative of new Set(paths)) {
    const parts = relative.split('/');
    if (parts.length > 2 || parts.some((part) => part === '') || parts[0]!.startsWith('.')) continue;
    result.covered.push(relative);
    let info: Stats;
    try {
      // As readdir's entries: a link to a folder is not listed as one.
      info = lstatSync(path.join(root, relative));
      // Nor is a file inside a linked folder: the full scan never goes into one.
      if (parts.length === 2 && !lstatSync(path.join(root, parts[0]!)).isDirectory()) continue;
    } catch {
      continue; // gone
    }
    const isFolder = info.isDirectory();
    if (isFolder && parts.length === 1) {
      const folder = path.join(root, relative);
      const inner = list(folder);
      if (!inner) continue;
      result.directories.push(folder);
      for (const file of inner) if (!file.isDirectory() && accept(`${relative}/${file.name}`)) look(`${relative}/${file.name}`, file.isSymbolicLink());
    } else if (!isFolder && accept(relative)) {
      look(relative, info.isSymbolicLink());
    }
  }
  return result;
}

/** What FileStamp.stamp holds for a file with these stats. */
export function stampOf(info: BigIntStats): string {
  return `${info.size}:${info.mtimeNs}:${info.ino}`;
}

function list(directory: string): Dirent[] | null {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return null;
  }
}
