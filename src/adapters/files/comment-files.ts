// The blog's comments in data_dir (docs/comments.md "Where comments are kept"), in data_dir/comments/:
//   posts/<slug>@<lang>.json   one post version's comments, every status, oldest first (names percent-encoded)
//   approved-addresses.json    the addresses (compared form) whose comment a person approved
//   webmentions/<id>.json      a webmention received and its status (webmention-inbox-files.ts)
//   webmentions-sent.json      the webmentions queued for the blog's posts (webmention-ledger.ts)
// Each file is replaced atomically on every change. Changes of this process run one after the other, and each
// file is kept in memory while its stamp (inode, size, time) stays, checked at most once a second for a read and
// before every change: `postbox comments import` writes beside a running `serve`, which reads a file again within
// a second of its replacement.
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommentedVersion, CommentStatus, CommentStore, StoredComment } from '../../comments/comment-store.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { createWebmentionInboxFiles } from './webmention-inbox-files.js';
import { createWebmentionLedger } from './webmention-ledger.js';

/** The folder of the comments under data_dir (reserved in src/config/data-files.ts). */
export function commentsDirOf(dataDir: string): string {
  return path.join(dataDir, 'comments');
}

const POSTS_FOLDER = 'posts';
/** How long a file's stamp is trusted before it is checked again (docs/comments.md "Import and export"). */
const STAMP_CHECK_MS = 1_000;
const ADDRESSES_FILE = 'approved-addresses.json';

/** The file name of a version: both parts percent-encoded, so "@" and "/" in them cannot mislead. */
function fileNameOf({ slug, lang }: CommentedVersion): string {
  return `${encodeURIComponent(slug)}@${encodeURIComponent(lang)}.json`;
}

async function readJson<T>(file: string, empty: T): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw error;
  }
}

/** Every comment and approved address of data_dir, for `postbox migrate --from-files`. */
export async function readCommentFiles(dataDir: string): Promise<{ comments: StoredComment[]; addresses: string[] }> {
  const store = createCommentFiles(dataDir);
  const { addresses } = await readJson<{ addresses: string[] }>(path.join(commentsDirOf(dataDir), ADDRESSES_FILE), { addresses: [] });
  return { comments: await store.listAll(), addresses };
}

/** What changes when a file is replaced: a new inode, and its size and time; "none" when there is no file. */
async function stampOf(file: string): Promise<string> {
  try {
    const { ino, size, mtimeMs } = await stat(file);
    return `${ino}:${size}:${mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/** `clock` times the stamp checks (Date.now unless a test moves time). */
export function createCommentFiles(dataDir: string, clock: () => number = Date.now): CommentStore {
  const folder = commentsDirOf(dataDir);
  const postsFolder = path.join(folder, POSTS_FOLDER);
  const addressesFile = path.join(folder, ADDRESSES_FILE);
  // Each version's comments as last read or written (frozen: every change works on a copy), and its file's stamp.
  const versions = new Map<string, { stamp: string; comments: Promise<readonly StoredComment[]>; checkedAt: number }>();
  let addresses: Promise<Set<string>> | undefined;
  let changes: Promise<unknown> = Promise.resolve();

  /** Runs `change` after every change before it; a failed change does not stop the next. */
  function serialize<T>(change: () => Promise<T>): Promise<T> {
    const done = changes.then(change, change);
    changes = done.catch(() => undefined);
    return done;
  }

  /** The version's comments; `fresh` checks the file's stamp now (before a change), else at most once a second. */
  async function load(name: string, fresh = false): Promise<readonly StoredComment[]> {
    const cached = versions.get(name);
    // A file this process wrote, or checked less than a second ago, is read as it is: a thread read many times a
    // second costs no stat each time, and a file another process replaced is seen within a second.
    if (cached && !fresh && clock() - cached.checkedAt < STAMP_CHECK_MS) return cached.comments;
    const file = path.join(postsFolder, name);
    const stamp = await stampOf(file);
    const again = versions.get(name);
    if (again && again.stamp === stamp) {
      again.checkedAt = clock();
      return again.comments;
    }
    const comments = readJson<{ comments: StoredComment[] }>(file, { comments: [] }).then((read) => Object.freeze(read.comments));
    versions.set(name, { stamp, comments, checkedAt: clock() });
    comments.catch(() => versions.delete(name));
    return comments;
  }

  async function save(name: string, comments: StoredComment[]): Promise<void> {
    await mkdir(postsFolder, { recursive: true });
    const file = path.join(postsFolder, name);
    await writeFileAtomically(file, `${JSON.stringify({ comments }, null, 1)}\n`);
    versions.set(name, { stamp: await stampOf(file), comments: Promise.resolve(Object.freeze(comments)), checkedAt: clock() });
  }

  function loadAddresses(): Promise<Set<string>> {
    addresses ??= readJson<{ addresses: string[] }>(addressesFile, { addresses: [] }).then((file) => new Set(file.addresses));
    return addresses;
  }

  /** Applies `change` to a copy of the version's comments and saves it when `change` says it changed something. */
  function changeVersion<T>(version: CommentedVersion, change: (comments: StoredComment[]) => { changed: boolean; result: T }): Promise<T> {
    const name = fileNameOf(version);
    return serialize(async () => {
      const comments = [...(await load(name, true))];
      const { changed, result } = change(comments);
      if (changed) await save(name, comments);
      return result;
    });
  }

  return {
    add: (comment) => changeVersion(comment, (comments) => ({ changed: comments.push(comment) > 0, result: undefined })),
    // The same frozen array while the version is unchanged: the thread's answer is made once for it (comment-routes.ts).
    listVersion: (version) => load(fileNameOf(version)),
    async listAll() {
      const names = await readdir(postsFolder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      const all = (await Promise.all(names.filter((name) => name.endsWith('.json')).map((name) => load(name)))).flat();
      return all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
    setStatus: (version, id, status: CommentStatus) =>
      changeVersion(version, (comments) => {
        const index = comments.findIndex((comment) => comment.id === id);
        if (index === -1) return { changed: false, result: undefined };
        comments[index] = { ...comments[index]!, status };
        return { changed: true, result: comments[index] };
      }),
    edit: (version, id, text, html) =>
      changeVersion(version, (comments) => {
        const index = comments.findIndex((comment) => comment.id === id);
        if (index === -1) return { changed: false, result: undefined };
        comments[index] = { ...comments[index]!, text, html };
        return { changed: true, result: comments[index] };
      }),
    remove: (version, id) =>
      changeVersion(version, (comments) => {
        const index = comments.findIndex((comment) => comment.id === id);
        if (index !== -1) comments.splice(index, 1);
        return { changed: index !== -1, result: index !== -1 };
      }),
    isApprovedAddress: async (address) => (await loadAddresses()).has(comparableEmailAddress(address)),
    addApprovedAddress: (address) =>
      serialize(async () => {
        const known = await loadAddresses();
        const key = comparableEmailAddress(address);
        if (known.has(key)) return;
        const next = new Set(known).add(key);
        await mkdir(folder, { recursive: true });
        await writeFileAtomically(addressesFile, `${JSON.stringify({ addresses: [...next] }, null, 1)}\n`);
        addresses = Promise.resolve(next);
      }),
    webmentions: createWebmentionInboxFiles(folder),
    sentWebmentions: createWebmentionLedger(folder),
  };
}
