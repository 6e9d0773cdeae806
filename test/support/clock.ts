// A controllable clock for the Clock port (src/ports.ts): tests move time, never wait for it.

export interface TestClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** 2024-05-01T12:00:00.000Z, the default start of test clocks. */
export const TEST_EPOCH_MS = Date.UTC(2024, 4, 1, 12, 0, 0);

/** One hour in milliseconds, for moving a test clock. */
export const HOUR_MS = 3_600_000;

/** A clock standing at `startMs` until the test moves it. */
export function createTestClock(startMs = TEST_EPOCH_MS): TestClock {
  let now = startMs;
  const clock = (() => now) as TestClock;
  clock.set = (ms) => {
    now = ms;
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}
