// The webmentions sent for the blog's posts (docs/comments.md "Sending"), in data_dir/comments/webmentions-sent.json:
// per post version, the change last looked at and the targets done for it. Replaced atomically, one write at a time.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SentLedger, SentRecord } from '../../comments/webmention/send-webmentions.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { commentsDirOf } from './comment-files.js';

const LEDGER_FILE = 'webmentions-sent.json';

export function createWebmentionLedger(dataDir: string): SentLedger {
  const folder = commentsDirOf(dataDir);
  const file = path.join(folder, LEDGER_FILE);
  let writes: Promise<unknown> = Promise.resolve();
  return {
    async read() {
      try {
        return (JSON.parse(await readFile(file, 'utf8')) as { versions: SentRecord }).versions;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw error;
      }
    },
    write(record) {
      const text = `${JSON.stringify({ versions: record }, null, 1)}\n`;
      const done = writes.then(async () => {
        await mkdir(folder, { recursive: true });
        await writeFileAtomically(file, text);
      });
      writes = done.catch(() => undefined);
      return done;
    },
  };
}
