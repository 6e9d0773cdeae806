// When a step of the `q` index build has run long enough for other work to have its turn. Steps are cut by time,
// not by a count of items: what an item costs varies a hundredfold (a post whose words are known against one read
// from its file, a list laid out in memory already touched or not), and the garbage collector's marking steps land
// in whichever step allocates. Cut by count, a step at 100,000 posts ran for up to 2 s with every request waiting.

/** Milliseconds of work between two pauses of the index build. */
export const STEP_MS = 12;

/** Whether the step under way should pause now; true at most once per STEP_MS (it restarts the clock). */
export type StepDue = () => boolean;

/** A StepDue on `now` (performance.now by default). */
export function stepClock(ms: number = STEP_MS, now: () => number = () => performance.now()): StepDue {
  let started = now();
  return () => {
    const time = now();
    if (time - started < ms) return false;
    started = time;
    return true;
  };
}
