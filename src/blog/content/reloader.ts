// Runs reloads one at a time: a request during a reload schedules exactly one more afterwards, so a burst
// of file events costs at most two passes and the last change is never missed.

export interface Reloader {
  request(): void;
  /** Resolves when no reload is running or pending. */
  idle(): Promise<void>;
  /** Stops taking requests and waits for the running reload. */
  close(): Promise<void>;
}

export function createReloader(reload: () => Promise<void>, onError: (error: unknown) => void): Reloader {
  let running: Promise<void> | null = null;
  let pending = false;
  let closed = false;

  const run = (): Promise<void> => {
    running = (async () => {
      do {
        pending = false;
        try {
          await reload();
        } catch (error) {
          onError(error);
        }
      } while (pending && !closed);
      running = null;
    })();
    return running;
  };

  return {
    request() {
      if (closed) return;
      if (running) pending = true;
      else void run();
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
