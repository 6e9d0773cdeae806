// A clock and timers that only move when the test says so, for the blog's scheduled posts.
import type { Timers } from '../../src/blog/content/release-timer.js';

export interface FakeTime {
  clock(): Date;
  now(): number;
  timers: Timers;
  /** When the pending timers are due, earliest first. */
  pending(): number[];
  /** Moves the clock forward by `ms`, firing every timer that comes due on the way, in order. */
  advance(ms: number): void;
}

export function createFakeTime(start: number): FakeTime {
  let now = start;
  let nextId = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  return {
    clock: () => new Date(now),
    now: () => now,
    timers: {
      set(callback, delayMs) {
        const id = nextId++;
        pending.set(id, { at: now + delayMs, callback });
        return id;
      },
      clear: (handle) => void pending.delete(handle as number),
    },
    pending: () => [...pending.values()].map((timer) => timer.at).sort((a, b) => a - b),
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = target;
    },
  };
}
