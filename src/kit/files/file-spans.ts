// A file's bytes read a span at a time through one small reused window, for files of tens of megabytes read once
// at start (the blog's load cache and the `q` index's words). Reading such a file whole takes one large block of
// memory that is freed soon after; the C allocator then serves later blocks below that size from its heap instead
// of the system's, and a process that did so kept some 17 MB more at 10,000 posts. A window below the allocator's
// threshold (128 KB) is never such a block.
import { readSync } from 'node:fs';

/** Bytes read at once, at most; a span larger than this gets a buffer of its own. */
export const WINDOW_BYTES = 64 * 1024;

/** A file's bytes, a span at a time: a span is valid until the next is asked for; null past the end. */
export interface ByteSpans {
  span(offset: number, length: number): Buffer | null;
  size: number;
}

/** Bytes in memory as spans. */
export function spansOf(bytes: Buffer): ByteSpans {
  return { span: (offset, length) => (offset >= 0 && offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : null), size: bytes.length };
}

/** The open file `descriptor` of `size` bytes as spans, read `windowBytes` at a time from the first byte asked for. */
export function fileSpans(descriptor: number, size: number, windowBytes = WINDOW_BYTES): ByteSpans {
  let window = Buffer.allocUnsafe(Math.min(windowBytes, size));
  let start = 0;
  let end = 0;
  return {
    size,
    span(offset, length) {
      if (offset < 0 || offset + length > size) return null;
      if (offset < start || offset + length > end) {
        if (length > window.length) window = Buffer.allocUnsafe(length);
        const last = Math.min(size, offset + window.length);
        start = offset;
        end = offset;
        while (end < last) {
          const count = readSync(descriptor, window, end - offset, last - end, end);
          if (count === 0) return null;
          end += count;
        }
      }
      return window.subarray(offset - start, offset - start + length);
    },
  };
}

/**
 * The offset of the first `byte` at or after `offset`, or -1 when there is none before the end. It looks a few KB
 * ahead at a time, more while it finds none: asking for a whole window from each offset would read the file again
 * from every line.
 */
export function indexOfByte(source: ByteSpans, byte: number, offset: number): number {
  for (let at = offset, ahead = 4096; at < source.size; ahead = Math.min(ahead * 2, WINDOW_BYTES)) {
    const length = Math.min(ahead, source.size - at);
    const found = source.span(at, length)!.indexOf(byte);
    if (found !== -1) return at + found;
    at += length;
  }
  return -1;
}
