// The claiming store's index of the pending messages, in memory: new messages in the order queued, retries in
// the order of their next try, which messages are leased and which lanes have one leased. Claims are answered
// from here under the contract of src/queue/store.ts; no I/O.
import type { QueuedMessage } from '../../../queue/outgoing.js';
import type { AttemptRecord, ClaimRequest } from '../../../queue/store.js';
import type { DiskMessage } from './layout.js';

/** A pending message in the index. */
export interface Entry {
  queued: QueuedMessage;
  slot: string;
  lane?: string;
  attempts: number;
  nextAttemptAt: number;
  retry: boolean;
  leased: boolean;
  /** Found dropped by another process at its claim: `complete` forgets it instead of recording it done. */
  dropped: boolean;
}

export interface ClaimIndex {
  get(id: string): Entry | undefined;
  size(): number;
  /** A message to try at `now` as new, after the new ones indexed before; none when `id` is indexed already. */
  addNew(message: DiskMessage, now: number): void;
  /** A message found pending at start: tried at once, as a retry (new mail still goes first). */
  addFound(message: DiskMessage): void;
  /** Leases due messages under the claim contract: new ones first, then at most `retryLimit` retries. */
  take(request: ClaimRequest, now: number): Entry[];
  /** Takes a message not leased out of the waiting lists (it stays indexed), to be `reschedule`d. */
  detach(entry: Entry): void;
  /** Gives up the lease of a message that failed for now, and puts it among the retries at its next try. */
  reschedule(entry: Entry, attempt: AttemptRecord): void;
  /** Out of the index; also out of the waiting lists when it is settled without a claim. */
  remove(entry: Entry): void;
  /** Makes every waiting retry due at `now` at the latest (`postbox queue retry`). */
  makeRetriesDue(now: number): void;
  /** The messages pending now; of `lane` only when given. */
  pending(lane?: string): QueuedMessage[];
}

export function createClaimIndex(): ClaimIndex {
  const index = new Map<string, Entry>();
  /** New messages nobody holds, in the order queued. */
  const fresh: Entry[] = [];
  /** Retries nobody holds, soonest first. */
  const retries: Entry[] = [];
  /** Lanes with a message leased now. */
  const busyLanes = new Set<string>();
  return {
    get: (id) => index.get(id),
    size: () => index.size,
    addNew(message, now) {
      if (index.has(message.id)) return;
      const entry = entryOf(message, false, now);
      index.set(message.id, entry);
      fresh.push(entry);
    },
    addFound(message) {
      if (index.has(message.id)) return;
      const entry = entryOf(message, true, -Infinity);
      index.set(message.id, entry);
      scheduleRetry(retries, entry);
    },
    take({ limit, retryLimit }, now) {
      const taken: Entry[] = [];
      takeNew(fresh, { limit, now, busyLanes }, taken);
      takeRetries(retries, { limit, retryLimit, now, busyLanes }, taken);
      return taken;
    },
    detach(entry) {
      if (!entry.leased) unlist(entry, [fresh, retries]);
    },
    reschedule(entry, attempt) {
      Object.assign(entry, { attempts: attempt.attempts, nextAttemptAt: attempt.nextAttemptAt, retry: true });
      unlease(entry, busyLanes);
      scheduleRetry(retries, entry);
    },
    remove(entry) {
      index.delete(entry.queued.id);
      if (entry.leased) unlease(entry, busyLanes);
      else unlist(entry, [fresh, retries]);
    },
    makeRetriesDue(now) {
      for (const entry of retries) entry.nextAttemptAt = Math.min(entry.nextAttemptAt, now);
    },
    pending: (lane) => [...index.values()].filter((entry) => lane === undefined || entry.lane === lane).map((entry) => entry.queued),
  };
}

interface Room {
  limit: number;
  now: number;
  /** Lanes with a message leased now. */
  busyLanes: Set<string>;
}

/** Due new messages into `taken`, in the order queued, skipping those whose lane is busy. */
function takeNew(fresh: Entry[], { limit, now, busyLanes }: Room, taken: Entry[]): void {
  for (let at = 0; at < fresh.length && taken.length < limit; ) {
    const entry = fresh[at]!;
    if (entry.nextAttemptAt > now || !laneFree(entry, busyLanes)) at += 1;
    else taken.push(lease(fresh.splice(at, 1)[0]!, busyLanes));
  }
}

/** Due retries into `taken`, soonest first, at most `retryLimit` of them. */
function takeRetries(retries: Entry[], { limit, retryLimit, now, busyLanes }: Room & { retryLimit: number }, taken: Entry[]): void {
  let retriesTaken = 0;
  for (let at = 0; at < retries.length && taken.length < limit && retriesTaken < retryLimit; ) {
    const entry = retries[at]!;
    // In time order: the first one not due ends the due ones.
    if (entry.nextAttemptAt > now) break;
    if (!laneFree(entry, busyLanes)) {
      at += 1;
      continue;
    }
    taken.push(lease(retries.splice(at, 1)[0]!, busyLanes));
    retriesTaken += 1;
  }
}

const laneFree = (entry: Entry, busyLanes: ReadonlySet<string>) => entry.lane === undefined || !busyLanes.has(entry.lane);

function lease(entry: Entry, busyLanes: Set<string>): Entry {
  entry.leased = true;
  if (entry.lane !== undefined) busyLanes.add(entry.lane);
  return entry;
}

function unlease(entry: Entry, busyLanes: Set<string>): void {
  if (!entry.leased) return;
  entry.leased = false;
  if (entry.lane !== undefined) busyLanes.delete(entry.lane);
}

/** Out of whichever waiting list holds it. */
function unlist(entry: Entry, lists: Entry[][]): void {
  for (const list of lists) {
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
  }
}

function entryOf(message: DiskMessage, retry: boolean, nextAttemptAt: number): Entry {
  const queued: QueuedMessage = { id: message.id, createdAt: message.createdAt, message: message.message };
  const attempts = message.attempt?.attempts ?? 0;
  return { queued, slot: message.slot, ...(message.lane === undefined ? {} : { lane: message.lane }), attempts, nextAttemptAt, retry, leased: false, dropped: false };
}

/** Puts `entry` among the waiting `retries`, after those due at the same time or earlier. */
function scheduleRetry(retries: Entry[], entry: Entry): void {
  let low = 0;
  let high = retries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (retries[middle]!.nextAttemptAt <= entry.nextAttemptAt) low = middle + 1;
    else high = middle;
  }
  retries.splice(low, 0, entry);
}
