// Lists the candidate post files of content_dir with what tells whether they changed (size, mtime, inode).
// Plain synchronous system calls, in slices: stat-ing 10,000 files through the thread pool costs several
// times the CPU, and yielding between slices keeps requests flowing during a rescan.
import { readdirSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Files stat-ed between two yields to the event loop. */
const SLICE = 500;

export interface FileStamp {
  /** Relative to content_dir, `/`-separated. */
  file: string;
  /** Changes whenever the file's content may have: size, mtime (ns resolution where the OS has it), inode. */
  stamp: string;
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
 * post file names among them. Hidden names are skipped.
 */
export async function scanContentDir(root: string, accept: (file: string) => boolean): Promise<ScanResult> {
  const entries = list(root);
  if (!entries) return { found: false, files: [], directories: [], unreadable: [] };
  const result: ScanResult = { found: true, files: [], directories: [root], unreadable: [] };
  const candidates: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      if (result.directories.length % SLICE === 0) await yieldToEventLoop();
      const folder = path.join(root, entry.name);
      const inner = list(folder);
      if (!inner) continue;
      result.directories.push(folder);
      for (const file of inner) {
        if (!file.isDirectory() && accept(`${entry.name}/${file.name}`)) candidates.push(`${entry.name}/${file.name}`);
      }
    } else if (accept(entry.name)) {
      candidates.push(entry.name);
    }
  }
  for (const [index, file] of candidates.entries()) {
    if (index > 0 && index % SLICE === 0) await yieldToEventLoop();
    try {
      const info = statSync(path.join(root, file), { bigint: true });
      if (info.isFile()) result.files.push({ file, stamp: stampOf(info) });
    } catch (error) {
      result.unreadable.push({ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
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
