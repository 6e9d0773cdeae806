// The queue's record of messages that left it (src/adapters/files/queue-files.ts): one slot per line in
// data_dir/queue/done.log, appended through one open file. Appends made in the same tick share one write, so a
// sent message costs a share of a write instead of a file of its own. Not fsynced: a process that dies keeps
// what it wrote (the kernel has it); only a power cut can lose the last lines, and then a message is sent again
// (at least once, docs/delivery.md), never lost.
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Lines appended since the last rewrite after which the journal is rewritten with only what still matters. */
const COMPACT_AFTER_LINES = 10_000;

export interface DoneJournal {
  /** The slots the journal on disk records. */
  read(): Promise<Set<string>>;
  /** Records `slot`; resolves once the line is written. */
  append(slot: string): Promise<void>;
  /**
   * Rewrites the journal with only `live()` when many lines were appended since the last rewrite (or `force`).
   * `live()` is called when the rewrite runs and must include every slot appended before it.
   */
  compact(live: () => Iterable<string>, force?: boolean): Promise<void>;
  close(): Promise<void>;
}

export function createDoneJournal(queueDir: string): DoneJournal {
  const file = path.join(queueDir, 'done.log');
  let handle: FileHandle | undefined;
  let buffered: string[] = [];
  let scheduled: Promise<void> | undefined;
  let appended = 0;
  /** Writes and rewrites run one after another, so no line goes to a file that is being replaced. */
  let chain: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = chain.then(task, task);
    chain = run.catch(() => undefined);
    return run;
  };

  async function writeBuffered(): Promise<void> {
    if (buffered.length === 0) return;
    const text = buffered.join('');
    appended += buffered.length;
    buffered = [];
    handle ??= await open(file, 'a', 0o600);
    await handle.write(text);
  }

  return {
    async read() {
      const text = await readFile(file, 'utf8').catch(() => '');
      return new Set(text.split('\n').filter((line) => /^[0-9a-z]+\.\d+$/.test(line)));
    },
    append(slot) {
      buffered.push(`${slot}\n`);
      scheduled ??= serially(async () => {
        // Everything appended in this tick goes in one write.
        await new Promise<void>((resolve) => setImmediate(resolve));
        scheduled = undefined;
        await writeBuffered();
      });
      return scheduled;
    },
    compact(live, force = false) {
      return serially(async () => {
        if (!force && appended < COMPACT_AFTER_LINES) return;
        await writeBuffered();
        const temporary = `${file}.tmp`;
        const writer = await open(temporary, 'w', 0o600);
        try {
          await writer.write([...live()].map((slot) => `${slot}\n`).join(''));
        } finally {
          await writer.close();
        }
        await handle?.close();
        handle = undefined;
        await rename(temporary, file);
        appended = 0;
      });
    },
    close() {
      return serially(async () => {
        await writeBuffered();
        await handle?.close();
        handle = undefined;
      });
    },
  };
}
