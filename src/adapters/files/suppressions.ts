// The suppression list in data_dir (docs/bounces.md "Suppression"), in data_dir/bounces/:
//   suppressions.json   the suppressed addresses, the soft bounces still counting, each campaign's bounces; replaced
//                       atomically on every change, under the lock file suppressions.json.lock, so a `serve` and a
//                       `postbox bounces remove` beside it never lose each other's change
//   sent/<day>.jsonl    what each sent mail's tag stands for, one line per mail in the file of its UTC day (the day is
//                       in the tag, so a lookup reads one file); a day's file goes once it is older than the records live
// Changes of this process queue in memory before they take the lock, so reports arriving at once are counted one
// after the other. Reads are cached and checked against the file at most every 250 ms.
import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BounceSource } from '../../bounces/bounce-report.js';
import type { BounceStore, CampaignTally, SentMail, Suppression, SuppressionKind } from '../../bounces/bounce-store.js';
import { dayOfSentId, isSentId } from '../../bounces/verp.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { withLockFile } from './account-files.js';

/** The folder of the bounce records under data_dir (reserved in src/config/data-files.ts). */
export function bouncesDirOf(dataDir: string): string {
  return path.join(dataDir, 'bounces');
}

const LIST_FILE = 'suppressions.json';
const LOCK_FILE = 'suppressions.json.lock';
const SENT_FOLDER = 'sent';
const DAY_MS = 86_400_000;
const RECHECK_MS = 250;

/** An entry as the file holds it: the time in RFC 3339, so that the file reads well. */
interface StoredSuppression {
  address: string;
  kind: SuppressionKind;
  at: string;
  reason: string;
  source: BounceSource;
}

interface ListFile {
  suppressed: StoredSuppression[];
  /** Soft bounces still counting, by address: their times, ms since the epoch. */
  soft: Record<string, number[]>;
  /** Each campaign's bounces: the recipients that bounced hard or complained, and when the first was counted. */
  campaigns: Record<string, { hard: number[]; complaint: number[]; at: number }>;
}

/** A sent mail as its line holds it. */
interface SentLine {
  id: string;
  to: string[];
  owner: boolean;
  kind: SentMail['kind'];
  form: string;
  campaign?: string;
  index?: number;
  at: number;
}

export function createSuppressionFiles(dataDir: string): BounceStore {
  const folder = bouncesDirOf(dataDir);
  const file = path.join(folder, LIST_FILE);
  const sentFolder = path.join(folder, SENT_FOLDER);
  let cache: { version: string; content: ListFile; addresses: Set<string>; checkedAt: number } | undefined;

  const cached = (version: string, content: ListFile, now: number) => {
    cache = { version, content, addresses: new Set(content.suppressed.map((entry) => entry.address)), checkedAt: now };
    return cache;
  };

  /** The list as it is now, from the cache when it was checked less than RECHECK_MS ago (unless `fresh`). */
  const current = async (fresh = false) => {
    const now = Date.now();
    if (cache && !fresh && now - cache.checkedAt < RECHECK_MS) return cache;
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!info) return cached('none', emptyList(), now);
    const version = versionOf(info);
    if (cache?.version === version) {
      cache.checkedAt = now;
      return cache;
    }
    return cached(version, parseList(await readFile(file, 'utf8'), file), now);
  };

  /** Changes of this process, one after the other, before the lock file. */
  let queue: Promise<unknown> = Promise.resolve();
  const change = <T>(apply: (content: ListFile) => { write?: ListFile; result: T }): Promise<T> => {
    const run = async () => {
      await mkdir(folder, { recursive: true });
      return withLockFile(path.join(folder, LOCK_FILE), async () => {
        const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        const { write, result } = apply(text === undefined ? emptyList() : parseList(text, file));
        if (write) {
          await writeFileAtomically(file, `${JSON.stringify(write, null, 2)}\n`);
          cached(versionOf(await stat(file)), write, Date.now());
        }
        return result;
      });
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const withEntry = (content: ListFile, entry: Suppression): ListFile | undefined =>
    content.suppressed.some((existing) => existing.address === entry.address) ? undefined : { ...content, suppressed: [...content.suppressed, toStored(entry)] };
  const comparable = (entry: Suppression): Suppression => ({ ...entry, address: comparableEmailAddress(entry.address) });

  return {
    async recordSent(mail) {
      await mkdir(sentFolder, { recursive: true });
      const line: SentLine = {
        id: mail.id,
        to: mail.to,
        owner: mail.owner,
        kind: mail.kind,
        form: mail.form,
        ...(mail.campaign ? { campaign: mail.campaign.campaign, index: mail.campaign.index } : {}),
        at: mail.at,
      };
      // One write of one whole line with O_APPEND. Not fsynced: a record lost to a power cut leaves one bounce
      // unmatched, which is not worth an fsync per mail.
      await appendFile(path.join(sentFolder, dayFileOf(dayOfSentId(mail.id))), `${JSON.stringify(line)}\n`, { mode: 0o600 });
    },
    async findSent(id) {
      if (!isSentId(id)) return undefined;
      const text = await readFile(path.join(sentFolder, dayFileOf(dayOfSentId(id))), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const start = text.indexOf(`{"id":"${id}"`);
      if (start === -1) return undefined;
      const end = text.indexOf('\n', start);
      try {
        return toSentMail(JSON.parse(text.slice(start, end === -1 ? undefined : end)) as SentLine);
      } catch {
        // A line torn by a crash while it was written.
        return undefined;
      }
    },
    async purgeSent(before) {
      const lastDay = Math.floor(before / DAY_MS);
      const names = await readdir(sentFolder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      let purged = 0;
      // A day's file goes once the whole day is before `before`.
      for (const name of names.filter((entry) => dayOfFile(entry) !== undefined && dayOfFile(entry)! < lastDay)) {
        const text = await readFile(path.join(sentFolder, name), 'utf8').catch(() => '');
        purged += text.split('\n').filter((line) => line !== '').length;
        await rm(path.join(sentFolder, name), { force: true });
      }
      await change((content) => {
        const old = Object.entries(content.campaigns).filter(([, tally]) => tally.at < before);
        if (old.length === 0) return { result: undefined };
        const campaigns = { ...content.campaigns };
        for (const [id] of old) delete campaigns[id];
        return { write: { ...content, campaigns }, result: undefined };
      });
      return purged;
    },
    async isSuppressed(address) {
      return (await current()).addresses.has(comparableEmailAddress(address));
    },
    async list() {
      return (await current()).content.suppressed
        .map(fromStored)
        .sort((first, second) => second.at - first.at || (first.address < second.address ? -1 : 1));
    },
    suppress: (given) =>
      change((content) => {
        const write = withEntry(content, comparable(given));
        return write ? { write, result: true } : { result: false };
      }),
    countSoft: (given, policy) =>
      change((content) => {
        const entry = comparable(given);
        const soft = { ...content.soft };
        // Only the bounces still inside the window are kept: older ones can never count again.
        const times = [...(soft[entry.address] ?? []), entry.at].filter((time) => time > entry.at - policy.windowMs).sort((first, second) => first - second);
        soft[entry.address] = times;
        const reached = times.length >= policy.limit ? withEntry({ ...content, soft }, entry) : undefined;
        return reached ? { write: reached, result: 'suppressed' as const } : { write: { ...content, soft }, result: 'counted' as const };
      }),
    remove: (address) =>
      change((content) => {
        const wanted = comparableEmailAddress(address);
        const suppressed = content.suppressed.filter((entry) => entry.address !== wanted);
        if (suppressed.length === content.suppressed.length) return { result: false };
        const soft = { ...content.soft };
        delete soft[wanted];
        return { write: { ...content, suppressed, soft }, result: true };
      }),
    tallyCampaign: (campaign, index, kind, at) =>
      change((content) => {
        const tally = content.campaigns[campaign] ?? { hard: [], complaint: [], at };
        if (tally[kind].includes(index)) return { result: undefined };
        return { write: { ...content, campaigns: { ...content.campaigns, [campaign]: { ...tally, [kind]: [...tally[kind], index] } } }, result: undefined };
      }),
    async campaignTally(campaign): Promise<CampaignTally> {
      // Read afresh: a campaign decides on it whether to pause.
      const tally = (await current(true)).content.campaigns[campaign];
      return { hard: tally?.hard.length ?? 0, complaint: tally?.complaint.length ?? 0 };
    },
  };
}

/** The file of the sent mails of UTC day `day` (days since the epoch): `2026-11-27.jsonl`. */
function dayFileOf(day: number): string {
  return `${new Date(day * DAY_MS).toISOString().slice(0, 10)}.jsonl`;
}

function dayOfFile(name: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(name);
  return match ? Math.floor(Date.parse(`${match[1]}T00:00:00Z`) / DAY_MS) : undefined;
}

function toSentMail(line: SentLine): SentMail {
  return {
    id: line.id,
    to: line.to,
    owner: line.owner,
    kind: line.kind,
    form: line.form,
    ...(line.campaign !== undefined && line.index !== undefined ? { campaign: { campaign: line.campaign, index: line.index } } : {}),
    at: line.at,
  };
}

function toStored(entry: Suppression): StoredSuppression {
  return { address: entry.address, kind: entry.kind, at: new Date(entry.at).toISOString(), reason: entry.reason, source: entry.source };
}

function fromStored(entry: StoredSuppression): Suppression {
  return { address: entry.address, kind: entry.kind, at: Date.parse(entry.at), reason: entry.reason, source: entry.source };
}

function emptyList(): ListFile {
  return { suppressed: [], soft: {}, campaigns: {} };
}

function versionOf(info: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** The file's content; one that is not (edited by hand and broken) is an error, never overwritten. */
function parseList(text: string, file: string): ListFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: fix or remove it`);
  }
  const content = value as Partial<ListFile> | null;
  if (typeof content !== 'object' || content === null || !Array.isArray(content.suppressed)) throw new Error(`${file} does not hold a "suppressed" list: fix or remove it`);
  return {
    suppressed: content.suppressed.filter((entry) => typeof entry?.address === 'string').map((entry) => ({ ...entry, address: comparableEmailAddress(entry.address) })),
    soft: typeof content.soft === 'object' && content.soft !== null ? content.soft : {},
    campaigns: typeof content.campaigns === 'object' && content.campaigns !== null ? content.campaigns : {},
  };
}

/** What `postbox migrate --from-files` copies: the list file as it is, and every sent mail still kept. */
export async function readSuppressionFiles(dataDir: string): Promise<{ list: ListFile; sent: SentMail[] }> {
  const folder = bouncesDirOf(dataDir);
  const text = await readFile(path.join(folder, LIST_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const list = text === undefined ? emptyList() : parseList(text, path.join(folder, LIST_FILE));
  const sent: SentMail[] = [];
  const names = await readdir(path.join(folder, SENT_FOLDER)).catch(() => [] as string[]);
  for (const name of names.filter((entry) => dayOfFile(entry) !== undefined).sort()) {
    for (const line of (await readFile(path.join(folder, SENT_FOLDER, name), 'utf8')).split('\n')) {
      if (line === '') continue;
      try {
        const parsed = JSON.parse(line) as SentLine;
        if (isSentId(parsed.id) && Array.isArray(parsed.to)) sent.push(toSentMail(parsed));
      } catch {
        // A torn line: its bounce stays unmatched.
      }
    }
  }
  return { list, sent };
}

export type { ListFile as SuppressionListFile };
export { fromStored as suppressionOfStored };
