// The background work of webmentions (docs/comments.md "Webmentions"): tasks run a few at a time, in the order they
// came; a task that fails is logged, never dropped silently. `settled()` waits for what was taken, for shutdown and
// tests.

export interface TaskQueue {
  push(task: () => Promise<void>): void;
  /** Resolves once every task pushed so far has run. */
  settled(): Promise<void>;
}

/** A queue running at most `concurrency` tasks at once; `onError` hears every task that threw. */
export function createTaskQueue(concurrency: number, onError: (error: unknown) => void): TaskQueue {
  const waiting: Array<() => Promise<void>> = [];
  let running = 0;
  let idle: Array<() => void> = [];

  const next = () => {
    while (running < concurrency && waiting.length > 0) {
      const task = waiting.shift()!;
      running += 1;
      void task()
        .catch(onError)
        .finally(() => {
          running -= 1;
          next();
        });
    }
    if (running === 0 && waiting.length === 0) {
      const done = idle;
      idle = [];
      for (const resolve of done) resolve();
    }
  };

  return {
    push(task) {
      waiting.push(task);
      next();
    },
    settled: () => (running === 0 && waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve))),
  };
}
