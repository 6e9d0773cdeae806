// A post's Markdown body, read again from its file when an answer needs it (the detail, the feeds, the excerpt):
// 100,000 posts hold about 400 MB of Markdown, which the service does not keep in memory.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { splitFrontMatter } from './front-matter.js';
import { stampOf } from './scan.js';

/**
 * The body of the file at `filePath` as it was loaded: the text from `bodyStart` when the file still has the
 * `stamp` it was loaded with. A file changed since has a reload on its way (the watcher, the rescan); until then
 * its body is the one it has now, and a file that is gone has an empty body.
 */
export function readBodyAgain(filePath: string, stamp: string, bodyStart: number): string {
  let text: string;
  try {
    // Not blocking: a FIFO put in the post's place would otherwise hold the request, and every other, forever.
    const descriptor = openSync(filePath, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const same = stampOf(fstatSync(descriptor, { bigint: true })) === stamp;
      text = readFileSync(descriptor, 'utf8');
      if (same) return text.slice(bodyStart);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return '';
  }
  return splitFrontMatter(text)?.body ?? '';
}
