// An endless request body for the body limit's tests: it counts every byte pulled from it, so a test can tell a
// reader that stops at the limit from one that reads on.
import { Readable } from 'node:stream';

/** A stream of `chunkSize`-byte chunks that never ends; `counter.produced` is how many bytes were pulled. */
export function createEndlessBody(chunkSize = 16 * 1024, highWaterMark?: number) {
  const counter = { produced: 0 };
  const stream = new Readable({
    ...(highWaterMark === undefined ? {} : { highWaterMark }),
    read() {
      counter.produced += chunkSize;
      this.push(Buffer.alloc(chunkSize, 0x61));
    },
  });
  return { stream, counter };
}

/**
 * The most a reader that stops at `limit` lets be pulled from `stream`: the limit, the chunk that passes it (dropped),
 * and what the stream reads ahead into its own buffer once paused: whole chunks until it holds its
 * `readableHighWaterMark` (16 KiB before Node 22, 64 KiB since). A reader that reads on pulls more.
 */
export function mostPulledFor(stream: Readable, limit: number, chunkSize: number): number {
  return limit + chunkSize + Math.ceil(stream.readableHighWaterMark / chunkSize) * chunkSize;
}

/** Lets the stream run on for a few turns of the event loop, as it would if the reader had not stopped it. */
export async function letItRun(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}
