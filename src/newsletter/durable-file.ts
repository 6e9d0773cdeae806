// Reading the newsletter's durable state at start. The atomic rewrite (src/kit/files/atomic-file.ts) and the
// repair of a torn last line (src/kit/files/jsonl.ts) are the shared storage helpers.
import { safeReason } from '../kit/safe-reason.js';
import { readJsonLines, type JsonLines } from '../kit/files/jsonl.js';

/** Reads JSONL state at start; anything but a missing file is fatal, with a message naming the file. */
export async function readStateLines<T>(file: string, what: string): Promise<JsonLines<T>> {
  try {
    return await readJsonLines<T>(file);
  } catch (error) {
    throw new Error(`cannot read the ${what} ${file} (${safeReason(error)}); fix or move it, then start again`, { cause: error });
  }
}
