// When a step of the `q` index build has run long enough for other work to have its turn. Steps are cut by time,
// not by a count of items: what an item costs varies a hundredfold (a post whose words are known against one read
// from its file, a list laid out in memory already touched or not), and the garbage collector's marking steps land
// in whichever step allocates. Cut by count, a step at 100,000 posts ran for up to 2 s with every request waiting.

/**
 * Milliseconds of work between two pauses of the index build (and of the summaries' warm-up, http/snapshot.ts):
 * what a request waits behind each at most (but for a garbage collection). A visitor's next query comes as the
 * event loop turns to them, so it waits for a step of each: 12 ms made queries during a build take 15-30 ms, 4 ms
 * some 5-6 ms, 1 ms some 3 ms. A pause costs microseconds.
 */
export const STEP_MS = 1;

/**
 * Whether the step under way should pause now: true once it has run STEP_MS. The next step's time counts from the
 * first question after that, when the pause is over: counted from the pause, a step after a pause as long as
 * itself (another scan's or the build's turn) would be a single item, and two that take turns would go item by item.
 */
export type StepDue = () => boolean;

/** A StepDue on `now` (performance.now by default). */
export function stepClock(ms: number = STEP_MS, now: () => number = () => performance.now()): StepDue {
  let started = now();
  let pausing = false;
  return () => {
    const time = now();
    if (pausing) {
      pausing = false;
      started = time;
      return false;
    }
    if (time - started < ms) return false;
    pausing = true;
    return true;
  };
}
