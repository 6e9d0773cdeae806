// Node's clock and timers behind the Timers port (src/ports.ts), for a running service. Tests hand in fake time
// (test/support/fake-timers.ts) instead.

/** setTimeout fires at once for delays above 2^31 - 1 ms (about 24.8 days): longer waits go in steps. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The shape of src/ports.ts Timers, repeated here since kit/ imports nothing of Postbox. */
export interface SystemTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface StepHandle {
  current: NodeJS.Timeout;
}

/** Date.now and Node's timers, unref'd (a waiting timer never keeps the process running), long waits in steps. */
export const systemTimers: SystemTimers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const due = Date.now() + Math.max(0, ms);
    const handle: StepHandle = { current: undefined as unknown as NodeJS.Timeout };
    const step = () => {
      const left = due - Date.now();
      if (left <= 0) return fn();
      handle.current = setTimeout(step, Math.min(left, LONGEST_TIMER_MS));
      handle.current.unref();
    };
    handle.current = setTimeout(step, Math.min(Math.max(0, ms), LONGEST_TIMER_MS));
    handle.current.unref();
    return handle;
  },
  // Like Node's clearTimeout, a handle never set (a timer not started) clears nothing.
  clearTimeout: (handle) => clearTimeout((handle as StepHandle | undefined)?.current),
};
