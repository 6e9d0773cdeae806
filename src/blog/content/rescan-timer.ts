// The safety-net rescan: runs every `intervalMs`, but never takes more than `maxShare` of the time, so
// that with 10,000 posts (a rescan stats every file) the idle service stays idle. It waits on the Timers port
// (src/ports.ts): Node's unless a test drives them.
import { systemTimers } from '../../kit/timers.js';
import type { Timers } from '../../ports.js';

export interface RescanTimer {
  close(): void;
}

export interface RescanTimerOptions {
  intervalMs: number;
  /** Runs one rescan and resolves when it is done. */
  rescan(): Promise<void>;
  /** Largest share of wall time the rescans may take (0.02: a 100 ms rescan runs every 5 s at most). */
  maxShare: number;
  /** Milliseconds on the clock a rescan's duration is measured with. */
  now(): number;
  timers?: Timers;
}

export function createRescanTimer(options: RescanTimerOptions): RescanTimer {
  const timers = options.timers ?? systemTimers;
  let timer: unknown = null;
  let closed = false;
  const schedule = (delay: number) => {
    if (closed) return;
    timer = timers.setTimeout(async () => {
      const started = options.now();
      await options.rescan();
      const spent = options.now() - started;
      schedule(Math.max(options.intervalMs, spent / options.maxShare - spent));
    }, delay);
  };
  if (options.intervalMs > 0) schedule(options.intervalMs);
  return {
    close() {
      closed = true;
      if (timer !== null) timers.clearTimeout(timer);
    },
  };
}
