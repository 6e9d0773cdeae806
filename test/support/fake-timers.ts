// Fake time behind the Timers port (src/ports.ts): nothing happens until a test moves the clock,
// and moving it fires the timers that fell due, in time order. Between two timers the work they started runs to
// its end: promises, and the file I/O of every store the timer `track`s (real I/O takes real time, which fake
// time must wait for, or a claim reading the folder would seem to take minutes).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Timers } from '../../src/ports.js';

/** Timers on fake time, with what tests need to drive them. */
export interface FakeTimer extends Timers {
  /** Moves the clock by `ms`, firing every timer due on the way. */
  advance(ms: number): Promise<void>;
  /** When the timers not yet fired are due, earliest first. */
  pending(): number[];
  /** Lets pending promises and I/O run without moving the clock, until `probe` answers (or fails after 5 s of real time). */
  until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T>;
  /** `target` whose method calls are waited for before the clock moves on. */
  track<T extends object>(target: T): T;
}

/** A FakeTimer starting at `start`. */
export function createFakeTimer(start = Date.UTC(2026, 0, 1)): FakeTimer {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  /** Calls into tracked objects still under way. */
  const underWay = new Set<Promise<unknown>>();

  /** Until every tracked call has ended and a few turns of the event loop found nothing more to do. */
  async function settle(): Promise<void> {
    for (;;) {
      for (let turn = 0; turn < 5; turn += 1) await nextTurn();
      if (underWay.size === 0) return;
      await Promise.allSettled([...underWay]);
    }
  }

  return {
    now: () => now,
    setTimeout(fn, ms) {
      nextId += 1;
      timers.set(nextId, { at: now + Math.max(0, ms), fn });
      return nextId;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => [...timers.values()].map((timer) => timer.at).sort((a, b) => a - b),
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        await settle();
        let due: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers) if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
      }
      now = target;
      await settle();
    },
    track(target) {
      return new Proxy(target, {
        get(object, key, receiver) {
          const value: unknown = Reflect.get(object, key, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const result: unknown = value.apply(object, args);
            if (result instanceof Promise) {
              const call = result.finally(() => underWay.delete(call));
              underWay.add(call);
              // The caller sees the original promise, rejections included; the tracked copy only marks the end.
              call.catch(() => undefined);
            }
            return result;
          };
        },
      });
    },
    async until(what, probe) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what}: not reached without moving the clock`);
        await nextTurn();
      }
    },
  };
}
