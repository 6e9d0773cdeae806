// Admin sessions (docs/admin.md "Sessions"): a random 256-bit id lives only in the person's cookie; the server
// keeps its SHA-256, the user, the user's generation and three times, in one file under data_dir, so that sessions
// survive a restart and a stolen file signs nobody in. A session ends after `idleMs` without a request, `maxMs`
// after sign-in whatever happens, at sign-out, and when its user's generation moves on (a new password or role,
// removal, "Sign out everywhere": the guard compares it with the account's).
import { createHash, createHmac } from 'node:crypto';
import type { Clock, RandomBytes } from '../ports.js';
import type { Role } from './accounts/account.js';

/** A session ends this long after sign-in unless `[admin] session_max_hours` says otherwise (docs/admin.md "Sessions"). */
export const DEFAULT_MAX_SESSION_MS = 7 * 24 * 3_600_000;

/** The sessions file in data_dir (config/data-files.ts reserves the name). */
export const ADMIN_SESSIONS_FILE = 'admin-sessions.json';

/** A request moves a session's last-seen time on disk only when it moved this much, not on every page. */
const TOUCH_SAVE_MS = 60_000;

/** What is stored of a session. */
export interface SessionRecord {
  user: string;
  /** The user's generation at sign-in: a session of an older one is over. */
  generation: number;
  createdAt: number;
  lastSeenAt: number;
  /** When the person last proved who they are (sign-in, or the password asked again before a sensitive change). */
  authAt: number;
}

/** A live session as the store finds it. */
export interface FoundSession {
  user: string;
  generation: number;
  createdAt: number;
  authAt: number;
  /** The per-session token every POST form carries in its `csrf_token` field. */
  csrfToken: string;
}

/** The signed-in person, as pages see it. */
export interface AdminSession {
  user: string;
  role: Role;
  /** The per-session token every POST form carries in its `csrf_token` field. */
  csrfToken: string;
  /** When the person last proved who they are. */
  authAt: number;
  /** `[admin] time_zone`: the IANA zone the pages show times in (views/time.tsx). */
  timeZone: string;
}

/** Where the records are kept; the composition root hands in data_dir/admin-sessions.json, written atomically. */
export interface SessionFile {
  /** The file's text, undefined when there is none yet. */
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

export interface SessionStoreOptions {
  file: SessionFile;
  clock: Clock;
  randomBytes: RandomBytes;
  /** admin.session_hours in milliseconds. */
  idleMs: number;
  /** admin.session_max_hours in milliseconds. */
  maxMs: number;
  /** A failed background save (the last-seen time of a request); sign-in and sign-out fail themselves. */
  onSaveError(error: unknown): void;
}

export interface SessionStore {
  /** A new session for `user` in `generation`; resolves once it is on disk, with the id for the cookie. */
  start(user: string, generation: number): Promise<{ id: string; session: FoundSession }>;
  /** The live session of a cookie's id, its last-seen time moved to now; undefined when there is none. */
  find(id: string | undefined): Promise<FoundSession | undefined>;
  /** The person of session `id` proved who they are again now (the password asked before a sensitive change). */
  confirm(id: string): Promise<void>;
  /** Ends the session of `id` (if any) on the server; resolves once that is on disk. */
  end(id: string | undefined): Promise<void>;
  /** Waits for pending saves. */
  close(): Promise<void>;
}

/** Whether `record` is still live at `now`. */
export function isSessionLive(record: SessionRecord, now: number, idleMs: number, maxMs: number): boolean {
  return now - record.lastSeenAt < idleMs && now - record.createdAt < maxMs && now >= record.createdAt;
}

/** What a page is told of a found session. */
function foundOf(id: string, record: SessionRecord): FoundSession {
  return { user: record.user, generation: record.generation, createdAt: record.createdAt, authAt: record.authAt, csrfToken: csrfTokenOf(id) };
}

/** The CSRF token of a session id: derived, so nothing more is stored, and unknown to whoever reads the file. */
export function csrfTokenOf(id: string): string {
  return createHmac('sha256', id).update('postbox admin csrf token').digest('base64url');
}

const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `id` could be a session id at all (43 base64url characters); anything else is no session, unlooked-up. */
export function isSessionId(id: string | undefined): id is string {
  return id !== undefined && ID_PATTERN.test(id);
}

/** A new session id: 256 random bits, base64url. */
export function createSessionId(randomBytes: RandomBytes): string {
  return randomBytes(32).toString('base64url');
}

/** Loads the stored sessions (an unreadable file counts as none: everybody signs in again). */
export async function createSessionStore(options: SessionStoreOptions): Promise<SessionStore> {
  const { file, clock, idleMs, maxMs } = options;
  const records = parseSessionRecords(await file.read());
  const savedLastSeen = new Map<string, number>();
  for (const [key, record] of records) savedLastSeen.set(key, record.lastSeenAt);
  let saving: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const run = saving.then(() => {
      const now = clock();
      for (const [key, record] of records) if (!isSessionLive(record, now, idleMs, maxMs)) records.delete(key);
      for (const [key, record] of records) savedLastSeen.set(key, record.lastSeenAt);
      return file.write(serializeRecords(records));
    });
    saving = run.catch(() => undefined);
    return run;
  };

  const live = (id: string | undefined): [string, SessionRecord] | undefined => {
    if (!isSessionId(id)) return undefined;
    const key = sessionKeyOf(id);
    const record = records.get(key);
    if (!record || !isSessionLive(record, clock(), idleMs, maxMs)) return undefined;
    return [key, record];
  };

  return {
    async start(user, generation) {
      const id = createSessionId(options.randomBytes);
      const now = clock();
      const record = { user, generation, createdAt: now, lastSeenAt: now, authAt: now };
      records.set(sessionKeyOf(id), record);
      await save();
      return { id, session: foundOf(id, record) };
    },
    async find(id) {
      const found = live(id);
      if (!found) return undefined;
      const [key, record] = found;
      record.lastSeenAt = clock();
      if (record.lastSeenAt - (savedLastSeen.get(key) ?? 0) >= TOUCH_SAVE_MS) save().catch(options.onSaveError);
      return foundOf(id as string, record);
    },
    async confirm(id) {
      const found = live(id);
      if (!found) return;
      found[1].authAt = clock();
      await save();
    },
    async end(id) {
      if (!isSessionId(id) || !records.delete(sessionKeyOf(id))) return;
      await save();
    },
    close: () => saving,
  };
}

/** What a session is stored under: the SHA-256 of its id, in hex. */
export function sessionKeyOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function serializeRecords(records: ReadonlyMap<string, SessionRecord>): string {
  const sessions = Object.fromEntries(
    [...records].map(([key, record]) => [
      key,
      { user: record.user, generation: record.generation, created_at: record.createdAt, last_seen_at: record.lastSeenAt, auth_at: record.authAt },
    ]),
  );
  return `${JSON.stringify({ version: 1, sessions }, null, 1)}\n`;
}

/** The records of an admin-sessions.json text, by key; an unreadable text holds none. */
export function parseSessionRecords(text: string | undefined): Map<string, SessionRecord> {
  const records = new Map<string, SessionRecord>();
  if (text === undefined) return records;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return records;
  }
  const sessions = (parsed as { sessions?: unknown } | null)?.sessions;
  if (sessions === null || typeof sessions !== 'object') return records;
  for (const [key, value] of Object.entries(sessions as Record<string, unknown>)) {
    const entry = value as { user?: unknown; generation?: unknown; created_at?: unknown; last_seen_at?: unknown; auth_at?: unknown } | null;
    if (!/^[0-9a-f]{64}$/.test(key) || typeof entry?.user !== 'string') continue;
    if (typeof entry.created_at !== 'number' || typeof entry.last_seen_at !== 'number') continue;
    // A session written before generations were kept began in the first one.
    const generation = typeof entry.generation === 'number' ? entry.generation : 0;
    const authAt = typeof entry.auth_at === 'number' ? entry.auth_at : entry.created_at;
    records.set(key, { user: entry.user, generation, createdAt: entry.created_at, lastSeenAt: entry.last_seen_at, authAt });
  }
  return records;
}
