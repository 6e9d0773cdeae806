// Notices changes in content_dir: fs.watch on the folder and each post folder (one watch per folder, not
// per file, so 10,000 posts stay far below the inotify limit). The periodic rescan that catches what file
// systems without events miss is in rescan-timer.ts.
import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import { systemTimers } from '../../kit/timers.js';
import type { Timers } from '../../ports.js';

export interface ContentWatcherOptions {
  /** content_dir: changed paths are given relative to it. */
  root: string;
  /**
   * Called (debounced) after something changed, with the paths the events named (relative to root, `/`-separated),
   * or null when some event named none (then anything may have changed).
   */
  onChange(paths: string[] | null): void;
  /** Quiet time after an event before onChange runs; events in between are folded into one call. */
  debounceMs: number;
  /** Reports a folder that cannot be watched (the periodic rescan still covers it). */
  onWatchError(directory: string, error: Error): void;
  /** What the debounce waits on: Node's unless a test drives them. */
  timers?: Timers;
}

export interface ContentWatcher {
  /** Watches exactly `directories` from now on (the folders the latest scan found). */
  watchDirectories(directories: readonly string[]): void;
  close(): void;
}

export function createContentWatcher(options: ContentWatcherOptions): ContentWatcher {
  const watchers = new Map<string, FSWatcher>();
  const failed = new Set<string>();
  const timers = options.timers ?? systemTimers;
  let timer: unknown = null;
  let closed = false;
  let started = false;
  // Paths named since the last call; null once an event named none.
  let paths: Set<string> | null = new Set();

  const changed = (path: string | null) => {
    if (closed) return;
    if (path === null) paths = null;
    else paths?.add(path);
    if (timer !== null) return;
    timer = timers.setTimeout(() => {
      timer = null;
      const named = paths;
      paths = new Set();
      options.onChange(named === null ? null : [...named]);
    }, options.debounceMs);
  };
  // Events in a post folder name a file in it: `<folder>/<file>`; in content_dir, a file or folder at the top.
  const prefixOf = (directory: string) => (directory === options.root ? '' : `${basename(directory)}/`);

  const stop = (directory: string) => {
    watchers.get(directory)?.close();
    watchers.delete(directory);
  };

  return {
    watchDirectories(directories) {
      if (closed) return;
      const wanted = new Set(directories);
      for (const directory of [...watchers.keys()]) if (!wanted.has(directory)) stop(directory);
      let added = false;
      for (const directory of wanted) {
        if (watchers.has(directory)) continue;
        added = true;
        try {
          const prefix = prefixOf(directory);
          const watcher = watch(directory, { persistent: false }, (_event, file) => changed(typeof file === 'string' ? prefix + file : null));
          watcher.on('error', () => {
            // Typically the folder was removed; the rescan that follows drops or re-adds it.
            stop(directory);
            changed(null);
          });
          watchers.set(directory, watcher);
          failed.delete(directory);
        } catch (error) {
          if (!failed.has(directory)) options.onWatchError(directory, error as Error);
          failed.add(directory);
        }
      }
      // A file written into a new folder between the scan that found the folder and its watch would be
      // missed: look once more.
      if (added && started) changed(null);
      started = true;
    },
    close() {
      closed = true;
      if (timer !== null) timers.clearTimeout(timer);
      for (const directory of [...watchers.keys()]) stop(directory);
    },
  };
}
