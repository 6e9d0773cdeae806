// Reads the JSON Lines files the service writes (archives, subscriber logs, journals) as objects.
import { readFile } from 'node:fs/promises';

/** The parsed lines of `file`; an empty list when the file does not exist yet. */
export async function readJsonLines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}
