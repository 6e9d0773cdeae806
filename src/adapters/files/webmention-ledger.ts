// The webmentions queued for the blog's posts (docs/comments.md "Sending"), in data_dir/comments/webmentions-sent.json:
// per post version, the change last looked at and the targets taken for it. The files backend serves one process:
// the record is held in memory and replaced atomically, one change at a time.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SentLedger } from '../../comments/webmention-ledger.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

const LEDGER_FILE = 'webmentions-sent.json';

/** Per post version: the change last looked at and the targets taken for it. */
export type SentRecord = Record<string, { change: string; sent: string[] }>;

/** The record in `commentsDir`, for `postbox migrate --from-files`; empty when there is none. */
export async function readWebmentionLedgerFile(commentsDir: string): Promise<SentRecord> {
  try {
    return (JSON.parse(await readFile(path.join(commentsDir, LEDGER_FILE), 'utf8')) as { versions: SentRecord }).versions;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

export function createWebmentionLedger(commentsDir: string): SentLedger {
  const file = path.join(commentsDir, LEDGER_FILE);
  let record: Promise<SentRecord> | undefined;
  let changes: Promise<unknown> = Promise.resolve();

  const read = () => readWebmentionLedgerFile(commentsDir);

  /** Runs `change` on the record after every change before it, and writes the record when it says so. */
  function update<T>(change: (book: SentRecord) => { changed: boolean; result: T }): Promise<T> {
    const done = changes.then(async () => {
      record ??= read();
      record.catch(() => (record = undefined));
      const book = await record;
      const { changed, result } = change(book);
      if (changed) {
        await mkdir(commentsDir, { recursive: true });
        await writeFileAtomically(file, `${JSON.stringify({ versions: book }, null, 1)}\n`);
      }
      return result;
    });
    changes = done.catch(() => undefined);
    return done;
  }

  return {
    take: (version, change, targets) =>
      update((book) => {
        const earlier = book[version];
        const sent = earlier?.change === change ? earlier.sent : [];
        const taken = [...new Set(targets)].filter((target) => !sent.includes(target));
        if (earlier?.change === change && taken.length === 0) return { changed: false, result: [] };
        book[version] = { change, sent: [...sent, ...taken] };
        return { changed: true, result: taken };
      }),
    giveBack: (version, change, targets) =>
      update((book) => {
        const earlier = book[version];
        if (earlier?.change !== change) return { changed: false, result: undefined };
        book[version] = { change, sent: earlier.sent.filter((target) => !targets.includes(target)) };
        return { changed: true, result: undefined };
      }),
  };
}
