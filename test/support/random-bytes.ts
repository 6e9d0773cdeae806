// A deterministic stand-in for the RandomBytes port (src/ports.ts): tokens differ and repeat run to run.
import type { RandomBytes } from '../../src/ports.js';

/** Gives `count` bytes all equal to the call number (1, 2, 3...), so every call differs from the last. */
export function createCountingRandomBytes(): RandomBytes {
  let call = 0;
  return (count) => {
    call += 1;
    return Buffer.alloc(count, call);
  };
}
