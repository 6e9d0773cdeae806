// Publishes scheduled posts on time (docs/blog.md "Scheduled posts"): one timer, set to the earliest
// scheduled date, instead of looking at every post now and then. Timers and the clock are arguments, so
// tests advance time instead of waiting for it.

/** setTimeout and clearTimeout, or a test's fake. */
export interface Timers {
  set(callback: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, unref'd: a pending release never keeps the process alive on its own. */
export const systemTimers: Timers = {
  set(callback, delayMs) {
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return timer;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** setTimeout fires at once for delays above 2^31 - 1 ms (about 24.8 days): longer waits go in steps. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface ReleaseTimer {
  /** Calls onRelease once `now()` reaches `at` (milliseconds since the epoch); Infinity disarms. Replaces any earlier arm. */
  arm(at: number): void;
  close(): void;
}

export interface ReleaseTimerOptions {
  timers: Timers;
  /** Milliseconds since the epoch: the same clock the visibility rule is asked with. */
  now(): number;
  onRelease(): void;
}

export function createReleaseTimer({ timers, now, onRelease }: ReleaseTimerOptions): ReleaseTimer {
  let handle: unknown = null;
  let closed = false;
  const disarm = () => {
    if (handle !== null) timers.clear(handle);
    handle = null;
  };
  const arm = (at: number) => {
    disarm();
    if (closed || at === Infinity) return;
    const delay = Math.max(0, at - now());
    handle = timers.set(() => {
      handle = null;
      // A timer may fire a little before the wall clock reaches `at` (it runs on a monotonic clock), and a
      // long wait is cut into steps: until the moment has come, wait again.
      if (now() >= at) onRelease();
      else arm(at);
    }, Math.min(delay, LONGEST_TIMER_MS));
  };
  return {
    arm,
    close() {
      closed = true;
      disarm();
    },
  };
}
