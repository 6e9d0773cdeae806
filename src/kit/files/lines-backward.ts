// Reading a JSONL file from its end: the inbox shows the newest submissions first, and a 100,000-line archive
// must answer its first page without reading the rest (docs/admin.md "Inbox"). Chunks of 64 KiB are read
// from the end; memory holds one chunk and one line, whatever the file's size.
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 64 * 1024;

/** One line of the file: where it starts (its byte offset) and its text without the newline. */
export interface FileLine {
  offset: number;
  text: string;
}

/** The lines of `file`, last first; an empty file or none at all gives nothing. Blank lines are left out. */
export async function* readLinesBackward(file: string): AsyncGenerator<FileLine> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return;
  try {
    let position = (await handle.stat()).size;
    /** Bytes of the line that began before the chunk read last (its start not seen yet). */
    let carry: Buffer = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      let joined = carry.length === 0 ? chunk : Buffer.concat([chunk, carry]);
      let end = joined.length;
      for (let index = joined.length - 1; index >= 0; index -= 1) {
        if (joined[index] !== 0x0a) continue;
        if (end > index + 1) yield { offset: position + index + 1, text: joined.toString('utf8', index + 1, end) };
        end = index;
      }
      carry = joined.subarray(0, end);
      joined = Buffer.alloc(0);
    }
    if (carry.length > 0) yield { offset: 0, text: carry.toString('utf8') };
  } finally {
    await handle.close();
  }
}
