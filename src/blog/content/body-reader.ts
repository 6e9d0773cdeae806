// A post file read from disk: whole when it is loaded, and its Markdown body again when an answer needs it (the
// detail, the feeds, the excerpt, the `q` index): 100,000 posts hold about 400 MB of Markdown, which the service
// does not keep in memory.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { contentDirOf, leadsOutsideContentDir } from './content-root.js';
import { splitFrontMatter } from './front-matter.js';
import { stampOf } from './scan.js';

/** A post file's bytes are read into this buffer, one file at a time; a larger file gets one of its own. */
const READ_BUFFER_BYTES = 256 * 1024;
let readBuffer: Buffer | undefined;

/** A post file's text and the stamp of what was read. */
export interface PostFileRead {
  text: string;
  stamp: string;
}

/**
 * A post file's text and the stamp of what was read: one open file for both, its bytes read into a buffer reused
 * from file to file (a first start and the `q` index read every post: readFileSync's own stat and buffer per file
 * showed). Null when it is not a regular file. Throws what opening or reading throws.
 */
export function readPostFile(filePath: string): PostFileRead | null {
  // Not blocking: a FIFO named like a post would otherwise wait for a writer, and hold the start, or a request,
  // with it.
  const descriptor = openSync(filePath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(descriptor, { bigint: true });
    if (!info.isFile()) return null;
    const size = Number(info.size);
    const buffer = size < READ_BUFFER_BYTES ? (readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES)) : Buffer.allocUnsafe(size);
    let length = 0;
    // The bytes the stamp describes: a file that grows meanwhile is read again when its next change is seen.
    while (length < size) {
      const count = readSync(descriptor, buffer, length, size - length, length);
      if (count === 0) break;
      length += count;
    }
    return { text: buffer.toString('utf8', 0, length), stamp: stampOf(info) };
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The body of the file at `filePath` (`file` relative to content_dir) as it was loaded: the text from `bodyStart`
 * when the file still has the `stamp` it was loaded with. A file changed since has a reload on its way (the
 * watcher, the rescan); until then its body is the one it has now, and a file that is gone (or is no longer a
 * file, or is now reached through a link out of content_dir: docs/blog.md "Where posts live") has an empty body.
 */
export function readBodyAgain(filePath: string, file: string, stamp: string, bodyStart: number): string {
  let read: PostFileRead | null;
  try {
    read = readPostFile(filePath);
  } catch {
    return '';
  }
  if (read === null) return '';
  if (read.stamp === stamp) return read.text.slice(bodyStart);
  // Changed since it was loaded: the scan has not looked at what it is now. Resolving the path costs a few
  // system calls, paid only by a file changed since.
  if (leadsOutsideContentDir(contentDirOf(filePath, file), filePath)) return '';
  return splitFrontMatter(read.text)?.body ?? '';
}
