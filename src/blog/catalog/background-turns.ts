// One step of background work per event-loop turn. The `q` index build, the summaries' warm-up and the writes of
// data_dir's files each run in short steps (step-clock.ts). When each waited for the next turn with a setImmediate
// of its own, a turn ran one step of each before the sockets were read again, and a request waited behind all of
// them; through one queue, a turn runs one step, so a request waits behind one (docs/performance.md "Right after a
// start").

/** Waits for the caller's next step: a later event-loop turn, in which no other background task takes one. */
export type TakeTurn = () => Promise<void>;

/** A queue of background tasks taking turns, first come first served; `schedule` is setImmediate but in tests. */
export function createBackgroundTurns(schedule: (run: () => void) => unknown = setImmediate): TakeTurn {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  const runOne = () => {
    scheduled = false;
    const next = waiting.shift();
    // The next task's step is scheduled now, so it lands in the following turn, after the sockets are read.
    if (waiting.length > 0) {
      scheduled = true;
      schedule(runOne);
    }
    next?.();
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        schedule(runOne);
      }
    });
}
