// Publishes scheduled posts on time (docs/blog.md "Scheduled posts"): one timer, set to the earliest
// scheduled date, instead of looking at every post now and then. The timers (the Timers port, src/ports.ts) and
// the clock are arguments, so tests advance time instead of waiting for it.
import { LONGEST_TIMER_MS } from '../../kit/timers.js';
import type { Timers } from '../../ports.js';

export interface ReleaseTimer {
  /** Calls onRelease once `now()` reaches `at` (milliseconds since the epoch); Infinity disarms. Replaces any earlier arm. */
  arm(at: number): void;
  close(): void;
}

export interface ReleaseTimerOptions {
  /** Node's (kit/timers.ts, unref'd: a pending release never keeps the process alive on its own), or a test's fake. */
  timers: Timers;
  /** Milliseconds since the epoch: the same clock the visibility rule is asked with. */
  now(): number;
  onRelease(): void;
}

export function createReleaseTimer({ timers, now, onRelease }: ReleaseTimerOptions): ReleaseTimer {
  let handle: unknown = null;
  let closed = false;
  const disarm = () => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  const arm = (at: number) => {
    disarm();
    if (closed || at === Infinity) return;
    const delay = Math.max(0, at - now());
    handle = timers.setTimeout(() => {
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
