// The blog's fake time: the Timers port on fake time (test/support/fake-timers.ts), with the Date clock the blog's
// content is read with, both at one moment that only moves when the test says so.
import { createFakeTimer, type FakeTimer } from '../support/fake-timers.js';

export interface FakeTime extends FakeTimer {
  /** The fake moment as a Date, for `deps.clock`. */
  clock(): Date;
}

export function createFakeTime(start: number): FakeTime {
  const timers = createFakeTimer(start);
  return { ...timers, clock: () => new Date(timers.now()) };
}
