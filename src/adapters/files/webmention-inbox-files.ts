// The webmentions received, in data_dir/comments/webmentions/<id>.json (docs/comments.md "Where comments are
// kept"): one file each, written atomically before the 202 and replaced when its verification ends. The files
// backend serves one process, so claims live in memory: what was pending when a process stopped is pending for the
// next one, which claims it at its first look.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { WEBMENTION_ID, type InboxWebmention, type SettledStatus, type WebmentionInbox, type WebmentionStatus } from '../../comments/webmention-inbox.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

const FOLDER = 'webmentions';

/** One file: the webmention and its status. */
type InboxFile = InboxWebmention & WebmentionStatus;

/** Every webmention received in `commentsDir` with its status, for `postbox migrate --from-files`. */
export async function readWebmentionInboxFiles(commentsDir: string): Promise<Array<InboxWebmention & WebmentionStatus>> {
  const folder = path.join(commentsDir, FOLDER);
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const files = await Promise.all(names.filter((name) => WEBMENTION_ID.test(name.slice(0, -'.json'.length)) && name.endsWith('.json')).map(async (name) => JSON.parse(await readFile(path.join(folder, name), 'utf8')) as InboxFile));
  return files.sort((a, b) => a.receivedAt - b.receivedAt);
}

export function createWebmentionInboxFiles(commentsDir: string): WebmentionInbox {
  const folder = path.join(commentsDir, FOLDER);
  const fileOf = (id: string) => path.join(folder, `${id}.json`);
  // The pending webmentions by id, read from the folder at the first claim; and those claimed now.
  let pending: Promise<Map<string, InboxWebmention>> | undefined;
  const claimed = new Set<string>();

  async function read(id: string): Promise<InboxFile | undefined> {
    if (!WEBMENTION_ID.test(id)) return undefined;
    try {
      return JSON.parse(await readFile(fileOf(id), 'utf8')) as InboxFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async function readAll(): Promise<InboxFile[]> {
    const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const files = await Promise.all(names.filter((name) => name.endsWith('.json')).map((name) => read(name.slice(0, -'.json'.length))));
    return files.filter((file): file is InboxFile => file !== undefined);
  }

  function loadPending(): Promise<Map<string, InboxWebmention>> {
    pending ??= readAll().then((files) => new Map(files.filter((file) => file.status === 'pending').map((file) => [file.id, mentionOf(file)])));
    pending.catch(() => (pending = undefined));
    return pending;
  }

  async function write(file: InboxFile): Promise<void> {
    await mkdir(folder, { recursive: true });
    await writeFileAtomically(fileOf(file.id), `${JSON.stringify(file)}\n`);
  }

  return {
    async receive(mention) {
      await write({ ...mention, status: 'pending' });
      if (pending) (await pending).set(mention.id, mention);
    },
    async claim(limit) {
      const waiting = [...(await loadPending()).values()].filter((mention) => !claimed.has(mention.id));
      const taken = waiting.sort((a, b) => a.receivedAt - b.receivedAt).slice(0, limit);
      for (const mention of taken) claimed.add(mention.id);
      return taken;
    },
    async settle(id, outcome: SettledStatus) {
      const file = await read(id);
      if (file) await write({ ...mentionOf(file), ...outcome });
      (await loadPending()).delete(id);
      claimed.delete(id);
    },
    async status(id) {
      const file = await read(id);
      if (!file) return undefined;
      return file.status === 'refused' ? { status: 'refused', reason: file.reason } : { status: file.status };
    },
    async forget(before) {
      for (const file of await readAll()) {
        if (file.status !== 'pending' && file.receivedAt < before) await rm(fileOf(file.id), { force: true });
      }
    },
  };
}

function mentionOf({ id, source, target, slug, lang, receivedAt }: InboxWebmention): InboxWebmention {
  return { id, source, target, slug, lang, receivedAt };
}
