// Group commit: what is added while a commit runs waits, and goes in the next commit together with everything
// else that arrived meanwhile. Under load one fsync then makes many additions durable instead of one each, and a
// lone addition is committed at once. Commits run one at a time, in the order their items were added.

/** Adds `item` to the next commit; resolves once the commit that holds it is done, rejects if that one failed. */
export type GroupCommit<T> = (item: T) => Promise<void>;

/**
 * Commits items through `commit`, which gets every item added since the previous commit started, oldest first,
 * and makes them durable together (or throws, which rejects exactly the additions of that batch).
 */
export function createGroupCommit<T>(commit: (batch: T[]) => Promise<void>): GroupCommit<T> {
  let waiting: Array<{ item: T; resolve(): void; reject(error: unknown): void }> = [];
  let running = false;

  async function run(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await commit(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void run();
    });
}
