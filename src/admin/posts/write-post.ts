// Writes a post file atomically (src/kit/files/atomic-file.ts), keeping the mode an existing file had.
import { chmod, realpath, stat } from 'node:fs/promises';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

/** Mode of a new post file: readable by a static site generator running as another user. */
const NEW_FILE_MODE = 0o644;

/**
 * Replaces (or creates) `absolute`. A symbolic link inside content_dir is written through, not replaced. The
 * atomic writer creates its temp file 0600; the old file's mode is put back right after the rename.
 */
export async function writePostFile(absolute: string, text: string, exists: boolean): Promise<void> {
  const target = exists ? await realpath(absolute) : absolute;
  const mode = exists ? (await stat(target)).mode & 0o7777 : NEW_FILE_MODE;
  await writeFileAtomically(target, text);
  await chmod(target, mode);
}
