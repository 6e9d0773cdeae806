// Something the worker does every so often (claim, read the counts, renew leases) on the Timers port, which only
// has one-shot timeouts: each run arms the next until it is cancelled.
import type { Timers } from '../../ports.js';

export interface Repeater {
  start(): void;
  /** No more runs; a run already under way is not waited for. */
  cancel(): void;
}

export function createRepeater(timer: Timers, ms: number, run: () => void): Repeater {
  let handle: unknown;
  let active = false;
  const arm = () => {
    handle = timer.setTimeout(() => {
      handle = undefined;
      run();
      if (active) arm();
    }, ms);
  };
  return {
    start() {
      active = true;
      arm();
    },
    cancel() {
      active = false;
      if (handle !== undefined) timer.clearTimeout(handle);
      handle = undefined;
    },
  };
}
