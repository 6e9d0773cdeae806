// Notices changes in content_dir: fs.watch on the folder and each post folder (one watch per folder, not
// per file, so 10,000 posts stay far below the inotify limit). The periodic rescan that catches what file
// systems without events miss is in rescan-timer.ts.
import { watch, type FSWatcher } from 'node:fs';

export interface ContentWatcherOptions {
  /** Called (debounced) after something changed. */
  onChange(): void;
  /** Quiet time after an event before onChange runs; events in between are folded into one call. */
  debounceMs: number;
  /** Reports a folder that cannot be watched (the periodic rescan still covers it). */
  onWatchError(directory: string, error: Error): void;
}

export interface ContentWatcher {
  /** Watches exactly `directories` from now on (the folders the latest scan found). */
  watchDirectories(directories: readonly string[]): void;
  close(): void;
}

export function createContentWatcher(options: ContentWatcherOptions): ContentWatcher {
  const watchers = new Map<string, FSWatcher>();
  const failed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let started = false;

  const changed = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      options.onChange();
    }, options.debounceMs);
  };

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
          const watcher = watch(directory, { persistent: false }, changed);
          watcher.on('error', () => {
            // Typically the folder was removed; the rescan that follows drops or re-adds it.
            stop(directory);
            changed();
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
      if (added && started) changed();
      started = true;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const directory of [...watchers.keys()]) stop(directory);
    },
  };
}
