// The users of /admin in data_dir (docs/admin.md "Users and roles"): data_dir/admin-users.json holds the stored
// users and the open invitations, replaced atomically on every change; data_dir/admin-audit.jsonl gets one JSON line
// per event, fsynced. A `serve` and a `postbox users ...` command share data_dir, so a change is made under an
// exclusive lock file (admin-users.json.lock): the file is read again, changed and written while it is held, and no
// change of another process is lost. Reads are cached and checked against the file at most every 250 ms, so a
// running `serve` sees a command's change well within a second.
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { AuditEvent, Invitation, StoredAccount } from '../../admin/accounts/account.js';
import type { AccountStore } from '../../admin/accounts/account-store.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { createJsonlAppender, type JsonlAppend } from '../../kit/files/jsonl.js';
import { readLinesBackward } from '../../kit/files/lines-backward.js';
import type { Clock } from '../../ports.js';

/** The users and invitations (reserved in src/config/data-files.ts). */
export const ACCOUNTS_FILE = 'admin-users.json';
/** Held while a process changes ACCOUNTS_FILE. */
export const ACCOUNTS_LOCK_FILE = 'admin-users.json.lock';
/** The audit log, one JSON line per event. */
export const AUDIT_FILE = 'admin-audit.jsonl';

/** A lock file older than this was left by a process that died holding it: it is taken over. */
export const LOCK_STALE_MS = 10_000;
/** How long a change waits for the lock before it fails. */
const LOCK_WAIT_MS = 30_000;
/** How long a read trusts what it read last before it looks at the file again. */
export const RECHECK_MS = 250;

interface AccountsFile {
  users: StoredAccount[];
  invitations: Invitation[];
}

export interface AccountFilesOptions {
  /** The process's appender (files/backend.ts shares one); a private one otherwise. */
  appendLine?: JsonlAppend;
  /** What RECHECK_MS is measured on: Date.now unless a test moves time. */
  clock?: Clock;
}

/** The account store of `dataDir`; nothing is read until it is used. */
export function createAccountFiles(dataDir: string, options: AccountFilesOptions = {}): AccountStore {
  const file = path.join(dataDir, ACCOUNTS_FILE);
  const auditFile = path.join(dataDir, AUDIT_FILE);
  const appendLine = options.appendLine ?? createJsonlAppender();
  const lockFile = path.join(dataDir, ACCOUNTS_LOCK_FILE);
  const clock = options.clock ?? Date.now;

  /** What was read last, and which version of the file it was (device, inode, size, mtime). */
  let cache: { version: string; content: AccountsFile; checkedAt: number } | undefined;

  /** The file as it is now, from the cache when it was checked less than RECHECK_MS ago. */
  const current = async (): Promise<AccountsFile> => {
    const now = clock();
    if (cache && now - cache.checkedAt < RECHECK_MS) return cache.content;
    const handle = await openIfThere(file);
    if (!handle) {
      cache = { version: 'none', content: emptyFile(), checkedAt: now };
      return cache.content;
    }
    try {
      const version = versionOf(await handle.stat());
      // A write replaces the file (a new inode), so an unchanged version is unchanged content.
      if (cache?.version !== version) cache = { version, content: parseAccountsFile(await handle.readFile('utf8'), file), checkedAt: now };
      else cache.checkedAt = now;
      return cache.content;
    } finally {
      await handle.close();
    }
  };

  /** Chains this instance's changes, so that they queue here instead of competing for the lock file. */
  let queue: Promise<unknown> = Promise.resolve();
  /**
   * Reads the file afresh under the lock, applies `change` (which returns the new content, or undefined for no
   * write) and writes it; the result is what `change` decided.
   */
  const change = <T>(apply: (content: AccountsFile) => { write?: AccountsFile; result: T }): Promise<T> => {
    const run = async () => {
      // A command may run before any `serve` made data_dir.
      await mkdir(dataDir, { recursive: true });
      return withLockFile(lockFile, async () => {
        const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        const content = text === undefined ? emptyFile() : parseAccountsFile(text, file);
        const { write, result } = apply(content);
        if (write) {
          write.users.sort((first, second) => compareNames(first.name, second.name));
          await writeFileAtomically(file, `${JSON.stringify(write, null, 2)}\n`);
          // Still under the lock: nobody else has written since.
          cache = { version: versionOf(await stat(file)), content: write, checkedAt: clock() };
        }
        return result;
      });
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    list: async () => (await current()).users.map(copy),
    async get(name) {
      const found = (await current()).users.find((account) => account.name === name);
      return found && copy(found);
    },
    create: (account) =>
      change((content) => {
        if (content.users.some((existing) => existing.name === account.name)) return { result: false };
        return { write: { ...content, users: [...content.users, copy(account)] }, result: true };
      }),
    update: (name, apply) =>
      change((content) => {
        const index = content.users.findIndex((existing) => existing.name === name);
        const before = index === -1 ? undefined : content.users[index];
        const after = apply(before && copy(before));
        if (!after) return { result: undefined };
        const stored = { ...copy(after), name };
        const users = index === -1 ? [...content.users, stored] : content.users.map((existing, at) => (at === index ? stored : existing));
        return { write: { ...content, users }, result: copy(stored) };
      }),
    remove: (name) =>
      change((content) => {
        const users = content.users.filter((existing) => existing.name !== name);
        return users.length === content.users.length ? { result: false } : { write: { ...content, users }, result: true };
      }),
    addInvitation: (invitation) =>
      change((content) => {
        if (content.invitations.some((existing) => existing.tokenHash === invitation.tokenHash)) return { result: false };
        return { write: { ...content, invitations: [...content.invitations, { ...invitation }] }, result: true };
      }),
    async listInvitations(now) {
      return (await current()).invitations
        .filter((invitation) => invitation.expiresAt > now)
        .sort((first, second) => second.createdAt - first.createdAt)
        .map((invitation) => ({ ...invitation }));
    },
    takeInvitation: (tokenHash, now) =>
      change((content) => {
        const found = content.invitations.find((invitation) => invitation.tokenHash === tokenHash);
        // Expired invitations go with any taking: they can never be taken.
        const invitations = content.invitations.filter((invitation) => invitation.tokenHash !== tokenHash && invitation.expiresAt > now);
        const changed = invitations.length !== content.invitations.length;
        const result = found && found.expiresAt > now ? { ...found } : undefined;
        return changed ? { write: { ...content, invitations }, result } : { result };
      }),
    dropInvitation: (tokenHash) =>
      change((content) => {
        const invitations = content.invitations.filter((invitation) => invitation.tokenHash !== tokenHash);
        return invitations.length === content.invitations.length ? { result: false } : { write: { ...content, invitations }, result: true };
      }),
    async audit(event) {
      await mkdir(dataDir, { recursive: true });
      await appendLine(auditFile, auditLine(event));
    },
    async listAudit(limit, offset = 0) {
      const events: AuditEvent[] = [];
      if (limit <= 0) return events;
      let skipped = 0;
      for await (const line of readLinesBackward(auditFile)) {
        const event = parseAuditLine(line.text);
        if (!event) continue;
        if (skipped < offset) {
          skipped += 1;
          continue;
        }
        events.push(event);
        if (events.length >= limit) break;
      }
      return events;
    },
  };
}

/**
 * Runs `work` while holding `lockFile`, created with 'wx' (it fails where the file exists). A lock older than
 * LOCK_STALE_MS was left by a process that died holding it and is taken over; one that is not is waited for, in
 * short random steps, for at most LOCK_WAIT_MS.
 */
export async function withLockFile<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  await acquireLock(lockFile, token);
  try {
    return await work();
  } finally {
    await releaseLock(lockFile, token);
  }
}

async function acquireLock(lockFile: string, token: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    let handle: FileHandle | undefined;
    try {
      handle = await open(lockFile, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (handle) {
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      return;
    }
    const held = await stat(lockFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
      await takeOverStale(lockFile, held);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lockFile} has been held by another process for ${LOCK_WAIT_MS / 1000} s`);
    await sleep(1 + Math.random() * Math.min(50, 2 + attempt * 2));
  }
}

/**
 * Removes the stale lock `seen`: it is renamed aside (one renamer of many succeeds) and deleted when it is still the
 * file seen stale; a fresh lock taken meanwhile by another process, moved aside by mistake, is linked back.
 */
async function takeOverStale(lockFile: string, seen: { dev: number; ino: number }): Promise<void> {
  const aside = `${lockFile}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = await stat(aside);
    if (moved.dev !== seen.dev || moved.ino !== seen.ino) await link(aside, lockFile).catch(() => undefined);
  } finally {
    await rm(aside, { force: true });
  }
}

/** Deletes the lock if it is still this holder's (a holder slower than LOCK_STALE_MS may have lost it). */
async function releaseLock(lockFile: string, token: string): Promise<void> {
  const text = await readFile(lockFile, 'utf8').catch(() => undefined);
  if (text === token) await rm(lockFile, { force: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function openIfThere(file: string): Promise<FileHandle | undefined> {
  try {
    return await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function versionOf(info: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

function emptyFile(): AccountsFile {
  return { users: [], invitations: [] };
}

/** The file's content; a file that is not one (edited by hand and broken) is an error, never overwritten. */
function parseAccountsFile(text: string, file: string): AccountsFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: fix or remove it`);
  }
  const content = value as Partial<AccountsFile> | null;
  if (typeof content !== 'object' || content === null || !Array.isArray(content.users) || !Array.isArray(content.invitations)) {
    throw new Error(`${file} does not hold "users" and "invitations" lists: fix or remove it`);
  }
  return { users: content.users.map((account) => ({ ...account, passkeys: Array.isArray(account.passkeys) ? account.passkeys : [] })), invitations: content.invitations };
}

/** Names in code unit order, as PostgreSQL's COLLATE "C" sorts them. */
function compareNames(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

function copy(account: StoredAccount): StoredAccount {
  return structuredClone(account);
}

/** The event with its keys in one order, absent ones left out. */
function auditLine(event: AuditEvent): AuditEvent {
  return {
    at: event.at,
    ...(event.user !== undefined && { user: event.user }),
    event: event.event,
    ...(event.subject !== undefined && { subject: event.subject }),
    ...(event.network !== undefined && { network: event.network }),
  };
}

/** One line of the audit log, or undefined for a line torn by a crash. */
function parseAuditLine(text: string): AuditEvent | undefined {
  try {
    const value = JSON.parse(text) as Partial<AuditEvent> | null;
    if (typeof value?.at !== 'number' || typeof value.event !== 'string') return undefined;
    return auditLine(value as AuditEvent);
  } catch {
    return undefined;
  }
}
