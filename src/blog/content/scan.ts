// Lists the candidate post files of content_dir with what tells whether they changed (size, mtime, inode).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

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

/** Walks content_dir: `*.md` at the top, `*.md` one folder down (for `<slug>/index.md`). Hidden names are skipped. */
export async function scanContentDir(root: string): Promise<ScanResult> {
  const result: ScanResult = { found: true, files: [], directories: [root], unreadable: [] };
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return { found: false, files: [], directories: [], unreadable: [] };
  }
  const folders: string[] = [];
  const candidates: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) folders.push(entry.name);
    else if (entry.name.endsWith('.md')) candidates.push(entry.name);
  }
  await Promise.all(
    folders.map(async (folder) => {
      let inner;
      try {
        inner = await readdir(path.join(root, folder), { withFileTypes: true });
      } catch {
        return;
      }
      result.directories.push(path.join(root, folder));
      for (const entry of inner) {
        if (!entry.name.startsWith('.') && entry.name.endsWith('.md') && !entry.isDirectory()) candidates.push(`${folder}/${entry.name}`);
      }
    }),
  );
  await forEachLimited(candidates, 64, async (file) => {
    try {
      const info = await stat(path.join(root, file), { bigint: true });
      if (!info.isFile()) return;
      result.files.push({ file, stamp: `${info.size}:${info.mtimeNs}:${info.ino}` });
    } catch (error) {
      result.unreadable.push({ file, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  });
  result.files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return result;
}

/** Runs `task` over `items` with at most `limit` in flight (10,000 posts must not exhaust file handles). */
export async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++] as T);
  });
  await Promise.all(workers);
}
