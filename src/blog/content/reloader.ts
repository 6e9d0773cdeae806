// Runs reloads in two lanes. A reload of everything (the periodic rescan, or a file event that named no path)
// spends seconds listing content_dir at 100,000 posts; a reload of the paths a file event named takes a few
// stats, and does not wait behind it: the library keeps what the later look found (library.ts refresh).
// Within a lane reloads run one at a time: a request during a reload schedules exactly one more afterwards, so
// a burst of file events costs at most two passes and the last change is never missed. The requests folded
// into one targeted reload name the union of their paths.

export interface Reloader {
  /** Asks for a reload of `paths` (relative to content_dir), or of everything without them. */
  request(paths?: readonly string[] | null): void;
  /** Resolves when no reload is running or pending in either lane. */
  idle(): Promise<void>;
  /** Stops taking requests and waits for the running reloads. */
  close(): Promise<void>;
}

interface Lane {
  request(paths: readonly string[] | undefined): void;
  running(): Promise<void> | null;
}

export function createReloader(reload: (paths: readonly string[] | undefined) => Promise<void>, onError: (error: unknown) => void): Reloader {
  let closed = false;
  const everything = createLane(reload, onError, () => closed);
  const named = createLane(reload, onError, () => closed);
  const lanes = [everything, named];
  const settled = async () => {
    for (;;) {
      const running = lanes.map((lane) => lane.running()).filter((promise) => promise !== null);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  };

  return {
    request(paths) {
      if (closed) return;
      if (paths) named.request(paths);
      else everything.request(undefined);
    },
    idle: settled,
    async close() {
      closed = true;
      await settled();
    },
  };
}

/** One reload at a time; requests meanwhile fold into one more, of the union of their paths (or of everything). */
function createLane(reload: (paths: readonly string[] | undefined) => Promise<void>, onError: (error: unknown) => void, closed: () => boolean): Lane {
  let running: Promise<void> | null = null;
  let pending = false;
  // The paths of the pending reload; undefined: everything.
  let pendingPaths: Set<string> | undefined;

  const note = (paths: readonly string[] | undefined) => {
    if (!pending) pendingPaths = paths ? new Set(paths) : undefined;
    else if (pendingPaths) {
      if (paths) for (const path of paths) pendingPaths.add(path);
      else pendingPaths = undefined;
    }
    pending = true;
  };

  const run = async (): Promise<void> => {
    do {
      pending = false;
      const paths = pendingPaths;
      pendingPaths = undefined;
      try {
        await reload(paths && [...paths]);
      } catch (error) {
        onError(error);
      }
    } while (pending && !closed());
    running = null;
  };

  return {
    request(paths) {
      note(paths);
      if (!running) running = run();
    },
    running: () => running,
  };
}
