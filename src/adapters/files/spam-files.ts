// The spam quarantine in data_dir (docs/spam.md "Quarantine", docs/configuration.md "[state]"), in data_dir/spam/:
//   quarantine.jsonl        an append-only log: "add" (a quarantined submission), "claim", "released", "unclaim" and
//                           "discard" (ids a person deleted);
//                           each line fsynced before the call that wrote it resolves
//   used-challenges.jsonl   the proof-of-work challenges used, with when they expire; appended without an fsync of
//                           its own (a crash loses at most the last few, which the time trap and expiry still guard)
// Both are read into memory on first use and rewritten without what `prune` forgot (kit/files/compacting-log.ts).
// One process owns data_dir, so every decision is taken in memory, before anything is awaited: of concurrent claims
// of one entry, or uses of one challenge, exactly one wins.
import path from 'node:path';
import type { QuarantinedSubmission, ReleaseClaim, SpamStore } from '../../forms/spam/quarantine.js';
import { createCompactingLog } from '../../kit/files/compacting-log.js';
import { readJsonLines, repairTornTail } from '../../kit/files/jsonl.js';

/** The folder of the quarantine under data_dir (reserved in src/config/data-files.ts). */
export function spamDirOf(dataDir: string): string {
  return path.join(dataDir, 'spam');
}

const QUARANTINE_FILE = 'quarantine.jsonl';
const CHALLENGES_FILE = 'used-challenges.jsonl';

/** A line of quarantine.jsonl. A rewritten log holds "add" lines alone, each with its claim and release. */
type QuarantineLine =
  | ({ op: 'add'; claimedAt?: number; releasedAt?: number } & QuarantinedSubmission)
  | { op: 'claim'; id: string; at: number }
  | { op: 'released'; id: string; at: number }
  | { op: 'unclaim'; id: string }
  | { op: 'discard'; ids: string[] };

/** A line of used-challenges.jsonl: the challenge's id and when it expires (ms). */
interface ChallengeLine {
  id: string;
  expiresAt: number;
}

interface Entry {
  record: QuarantinedSubmission;
  claimedAt?: number;
  releasedAt?: number;
}

export interface SpamFilesOptions {
  /** What the ids are made from; the system clock unless given. */
  clock?: () => number;
}

export function createSpamFiles(folder: string, options: SpamFilesOptions = {}): SpamStore {
  const clock = options.clock ?? Date.now;
  const quarantineFile = path.join(folder, QUARANTINE_FILE);
  const challengesFile = path.join(folder, CHALLENGES_FILE);
  /** Every entry by id, and each form's entries in the order of their ids (the order they arrived). */
  const entries = new Map<string, Entry>();
  const byForm = new Map<string, Entry[]>();
  const usedChallenges = new Map<string, number>();
  const ids = createIdMaker(clock);

  const quarantineLog = createCompactingLog<QuarantineLine>(quarantineFile, {
    durable: true,
    *snapshot() {
      for (const entry of entries.values()) yield addLineOf(entry);
    },
  });
  const challengeLog = createCompactingLog<ChallengeLine>(challengesFile, {
    durable: false,
    *snapshot() {
      for (const [id, expiresAt] of usedChallenges) yield { id, expiresAt };
    },
  });

  const put = (entry: Entry) => {
    entries.set(entry.record.id, entry);
    let list = byForm.get(entry.record.form);
    if (!list) byForm.set(entry.record.form, (list = []));
    list.push(entry);
  };

  let loading: Promise<void> | undefined;
  /** Reads both files once; a failed read is tried again at the next call. */
  const loaded = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      entries.clear();
      byForm.clear();
      usedChallenges.clear();
      throw error;
    });
    return loading;
  };

  async function load(): Promise<void> {
    // A line torn by a crash is cut, so that the next append starts on a line of its own.
    await repairTornTail(quarantineFile);
    await repairTornTail(challengesFile);
    const adds: Entry[] = [];
    const found = new Map<string, Entry>();
    for (const line of (await readJsonLines<QuarantineLine>(quarantineFile)).records) {
      if (line.op === 'discard') {
        for (const id of Array.isArray(line.ids) ? line.ids : []) found.delete(id);
        continue;
      }
      if (line.op === 'add') {
        if (found.has(line.id)) continue;
        const { op: _op, claimedAt, releasedAt, ...record } = line;
        const entry: Entry = { record, ...(claimedAt === undefined ? {} : { claimedAt }), ...(releasedAt === undefined ? {} : { releasedAt }) };
        found.set(line.id, entry);
        adds.push(entry);
        continue;
      }
      const entry = found.get(line.id);
      if (!entry) continue;
      if (line.op === 'claim') entry.claimedAt = line.at;
      else if (line.op === 'released') entry.releasedAt = line.at;
      else delete entry.claimedAt;
    }
    adds.sort((first, second) => compareText(first.record.id, second.record.id));
    for (const entry of adds) if (found.get(entry.record.id) === entry) put(entry);
    ids.after(adds.at(-1)?.record.id);
    for (const line of (await readJsonLines<ChallengeLine>(challengesFile)).records) {
      if (typeof line.id === 'string' && typeof line.expiresAt === 'number') usedChallenges.set(line.id, line.expiresAt);
    }
  }

  /** The entry `id` that waits (not released), or undefined. */
  const waiting = (id: string) => {
    const entry = entries.get(id);
    return entry && entry.releasedAt === undefined ? entry : undefined;
  };

  return {
    async useOnce(id, expiresAt) {
      await loaded();
      if (usedChallenges.has(id)) return false;
      usedChallenges.set(id, expiresAt);
      try {
        await challengeLog.append({ id, expiresAt });
      } catch (error) {
        // Not written: the visitor's retry with the same solution is not a replay.
        usedChallenges.delete(id);
        throw error;
      }
      return true;
    },

    async quarantine(submitted) {
      await loaded();
      const entry: Entry = { record: { id: ids.next(), form: submitted.form, receivedAt: submitted.receivedAt, reasons: [...submitted.reasons], submission: submitted.submission } };
      put(entry);
      try {
        await quarantineLog.append(addLineOf(entry));
      } catch (error) {
        forget(entry);
        throw error;
      }
      return entry.record.id;
    },

    async list(form, { limit, before }) {
      await loaded();
      const found: QuarantinedSubmission[] = [];
      const list = byForm.get(form) ?? [];
      for (let index = list.length - 1; index >= 0 && found.length < limit; index -= 1) {
        const entry = list[index]!;
        if (entry.releasedAt !== undefined) continue;
        if (before !== undefined && compareText(entry.record.id, before) >= 0) continue;
        found.push(copyOf(entry.record));
      }
      return found;
    },

    async count(form) {
      await loaded();
      return (byForm.get(form) ?? []).filter((entry) => entry.releasedAt === undefined).length;
    },

    async claim(id, now, staleAfterMs): Promise<ReleaseClaim> {
      await loaded();
      const entry = waiting(id);
      if (!entry || (entry.claimedAt !== undefined && entry.claimedAt >= now - staleAfterMs)) return { kind: 'gone' };
      const before = entry.claimedAt;
      entry.claimedAt = now;
      try {
        await quarantineLog.append({ op: 'claim', id, at: now });
      } catch (error) {
        if (entry.claimedAt === now) restoreClaim(entry, before);
        throw error;
      }
      return { kind: 'claimed', entry: copyOf(entry.record) };
    },

    async released(id, now) {
      await loaded();
      const entry = waiting(id);
      if (!entry) return;
      entry.releasedAt = now;
      try {
        await quarantineLog.append({ op: 'released', id, at: now });
      } catch (error) {
        delete entry.releasedAt;
        throw error;
      }
    },

    async unclaim(id) {
      await loaded();
      const entry = waiting(id);
      if (!entry || entry.claimedAt === undefined) return;
      const before = entry.claimedAt;
      delete entry.claimedAt;
      try {
        await quarantineLog.append({ op: 'unclaim', id });
      } catch (error) {
        restoreClaim(entry, before);
        throw error;
      }
    },

    async discard(form, which, now, staleAfterMs) {
      await loaded();
      if ('upTo' in which && !isEntryId(which.upTo)) return 0;
      const chosen = (byForm.get(form) ?? []).filter(
        (entry) =>
          entry.releasedAt === undefined &&
          !(entry.claimedAt !== undefined && entry.claimedAt >= now - staleAfterMs) &&
          ('id' in which ? entry.record.id === which.id : compareText(entry.record.id, which.upTo) <= 0),
      );
      if (chosen.length === 0) return 0;
      // Taken out before anything is awaited, so that no claim can start on an entry that is going.
      for (const entry of chosen) forget(entry);
      try {
        await quarantineLog.append({ op: 'discard', ids: chosen.map((entry) => entry.record.id) });
      } catch (error) {
        for (const entry of chosen) put(entry);
        byForm.get(form)?.sort((first, second) => compareText(first.record.id, second.record.id));
        throw error;
      }
      return chosen.length;
    },

    async countByDay(since) {
      await loaded();
      const counts = new Map<string, { day: string; form: string; count: number }>();
      for (const { record } of entries.values()) {
        const at = Date.parse(record.receivedAt);
        if (!(at >= since)) continue;
        const day = new Date(at).toISOString().slice(0, 10);
        const key = `${day} ${record.form}`;
        const counted = counts.get(key);
        if (counted) counted.count += 1;
        else counts.set(key, { day, form: record.form, count: 1 });
      }
      return [...counts.values()].sort((first, second) => compareText(first.day, second.day) || compareText(first.form, second.form));
    },

    async prune(form, before) {
      await loaded();
      const old = (byForm.get(form) ?? []).filter((entry) => !(Date.parse(entry.record.receivedAt) >= before));
      for (const entry of old) forget(entry);
      let expired = 0;
      for (const [id, expiresAt] of usedChallenges) {
        if (expiresAt < before) {
          usedChallenges.delete(id);
          expired += 1;
        }
      }
      // Only what went is rewritten: a prune that finds nothing to forget writes nothing.
      if (old.length > 0) await quarantineLog.rewrite();
      if (expired > 0) await challengeLog.rewrite();
      return old.length;
    },
  };

  function forget(entry: Entry): void {
    entries.delete(entry.record.id);
    const list = byForm.get(entry.record.form);
    const at = list?.indexOf(entry) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    if (list && list.length === 0) byForm.delete(entry.record.form);
  }
}

function restoreClaim(entry: Entry, claimedAt: number | undefined): void {
  if (claimedAt === undefined) delete entry.claimedAt;
  else entry.claimedAt = claimedAt;
}

function addLineOf(entry: Entry): QuarantineLine {
  return {
    op: 'add',
    ...entry.record,
    ...(entry.claimedAt === undefined ? {} : { claimedAt: entry.claimedAt }),
    ...(entry.releasedAt === undefined ? {} : { releasedAt: entry.releasedAt }),
  };
}

/** A copy the caller may change without changing the store's. */
function copyOf(record: QuarantinedSubmission): QuarantinedSubmission {
  return { ...record, reasons: [...record.reasons], submission: { ...record.submission } };
}

/** Text by code points (ids are fixed-width, so that this compares their times). */
function compareText(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/** Width of the two parts of an id: milliseconds and a counter within one, both base 36. */
const TIME_DIGITS = 9;
const COUNTER_DIGITS = 4;

/**
 * Ids that sort by arrival: the time in milliseconds, then a counter for ids made within one millisecond. A clock
 * set back never makes an id smaller than one made before, nor than the last one of the log.
 */
/** Whether `id` has the shape of the ids this store makes. */
function isEntryId(id: string): boolean {
  return /^[0-9a-z]+$/.test(id) && id.length === TIME_DIGITS + COUNTER_DIGITS;
}

function createIdMaker(clock: () => number) {
  let lastTime = 0;
  let counter = 0;
  return {
    next(): string {
      const now = Math.max(0, Math.floor(clock()));
      if (now > lastTime) {
        lastTime = now;
        counter = 0;
      } else {
        counter += 1;
        if (counter >= 36 ** COUNTER_DIGITS) {
          lastTime += 1;
          counter = 0;
        }
      }
      return lastTime.toString(36).padStart(TIME_DIGITS, '0') + counter.toString(36).padStart(COUNTER_DIGITS, '0');
    },
    /** Continues after `id` (the newest of the log). */
    after(id: string | undefined): void {
      if (id === undefined || !isEntryId(id)) return;
      const time = parseInt(id.slice(0, TIME_DIGITS), 36);
      const count = parseInt(id.slice(TIME_DIGITS), 36);
      if (time > lastTime || (time === lastTime && count > counter)) {
        lastTime = time;
        counter = count;
      }
    },
  };
}
