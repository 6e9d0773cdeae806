// Runs reloads one at a time: a request during a reload schedules exactly one more afterwards, so a burst
// of file events costs at most two passes and the last change is never missed. A request may name the paths that
// changed; the requests folded into one reload name the union of their paths, or none (look at everything) when
// one of them named none.

export interface Reloader {
  /** Asks for a reload of `paths` (relative to content_dir), or of everything without them. */
  request(paths?: readonly string[] | null): void;
  /** Resolves when no reload is running or pending. */
  idle(): Promise<void>;
  /** Stops taking requests and waits for the running reload. */
  close(): Promise<void>;
}

export function createReloader(reload: (paths: readonly string[] | undefined) => Promise<void>, onError: (error: unknown) => void): Reloader {
  let running: Promise<void> | null = null;
  let pending = false;
  // The paths of the pending reload; undefined: everything.
  let pendingPaths: Set<string> | undefined;
  let closed = false;

  const note = (paths: readonly string[] | null | undefined) => {
    if (!pending) pendingPaths = paths ? new Set(paths) : undefined;
    else if (pendingPaths) {
      if (paths) for (const path of paths) pendingPaths.add(path);
      else pendingPaths = undefined;
    }
    pending = true;
  };

  const run = (): Promise<void> => {
    running = (async () => {
      do {
        pending = false;
        const paths = pendingPaths;
        pendingPaths = undefined;
        try {
          await reload(paths && [...paths]);
        } catch (error) {
          onError(error);
        }
      } while (pending && !closed);
      running = null;
    })();
    return running;
  };

  return {
    request(paths) {
      if (closed) return;
      note(paths);
      if (!running) void run();
    },
    async idle() {
      while (running) await running;
    },
    async close() {
      closed = true;
      while (running) await running;
    },
  };
}
