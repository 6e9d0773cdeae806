// The mail queue at work (docs/delivery.md): a message is written to disk before anyone is told it was
// accepted, then sent at once; a temporary failure is tried again later (src/queue/retry-policy.ts), a
// permanent one, or one that outlived `queue_max_hours`, moves to queue/failed/. New messages go before
// retries and retries never take more than half of the sending slots, so a backlog never starves new mail.
import type { Clock } from '../ports.js';
import { judgeFailure, sendOnce } from './attempt.js';
import type { DeliveryFailure } from './failure.js';
import type { Dispatch, OutgoingMessage, QueuedMessage, QueueOutcome } from './outgoing.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AttemptRecord, QueueStore, StoredMessage } from './store.js';

/** What the queue tells its owner (the forms service counts and logs it). */
export interface QueueReport {
  queued(messages: readonly QueuedMessage[]): void;
  delivered(message: QueuedMessage): void;
  retrying(message: QueuedMessage, failure: DeliveryFailure, attempt: AttemptRecord): void;
  givenUp(message: QueuedMessage, failure: DeliveryFailure, attempts: number): void;
  /** A file of the queue could not be read or written; `action` says which step. */
  storageFailed(action: string, error: unknown): void;
}

export interface QueueWorkerDeps {
  store: QueueStore;
  dispatch: Dispatch;
  policy: RetryPolicy;
  clock: Clock;
  /** A number in [0, 1) for the retry jitter. */
  random(): number;
  report: QueueReport;
  /** Messages sent at the same time; 8 unless given (the SMTP pool has 5 connections). */
  concurrency?: number;
  /** How often the folder is read for messages put back by `postbox queue retry`; 2 s unless given. */
  rescanIntervalMs?: number;
  /**
   * Told how a message left the queue, and awaited before the queue lets go of it: what it records is written
   * before the message can be forgotten (a campaign's journal, src/campaigns/campaign-runner.ts).
   */
  settled?(message: QueuedMessage, outcome: QueueOutcome): Promise<void>;
  /**
   * Messages of one lane are sent one at a time: a campaign's, so that a crash can find at most one of its mails
   * in flight (contract section 7). Undefined: no lane.
   */
  laneOf?(message: QueuedMessage): string | undefined;
}

export interface MailQueue {
  /** Loads what is on disk (tried at once, as retries) and starts sending. */
  start(): Promise<void>;
  /** Resolves once every message is durably queued; rejects when they could not be written. */
  enqueue(messages: readonly OutgoingMessage[]): Promise<void>;
  /** The messages waiting or being sent now (with a shared store: by every replica); of `lane` only when given. */
  pendingMessages(lane?: string): Promise<QueuedMessage[]>;
  /** Pending and failed messages now, and the fsync calls the queue's writes made since start. */
  counts(): { pending: number; failed: number; fsyncs: number };
  /** Tries new messages once more and waits for sends in flight, for up to `graceMs`; what is pending stays on disk. */
  stop(graceMs: number): Promise<void>;
}

interface Entry {
  stored: StoredMessage;
  attempts: number;
  nextAttemptAt: number;
}

export function createQueueWorker(deps: QueueWorkerDeps): MailQueue {
  const { store, dispatch, policy, clock, report } = deps;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  const retryShare = Math.max(1, Math.floor(concurrency / 2));
  const entries = new Map<string, Entry>();
  const fresh: Entry[] = [];
  /** Waiting retries, soonest first. */
  const retries: Entry[] = [];
  const inFlight = new Set<Promise<void>>();
  /** Lanes with a message being sent now. */
  const busyLanes = new Set<string>();
  const laneFree = (entry: Entry) => {
    const lane = deps.laneOf?.(entry.stored);
    return lane === undefined || !busyLanes.has(lane);
  };
  let retriesInFlight = 0;
  let failedCount = 0;
  let stopped = false;
  /** Stopping: new messages are still tried (within the grace), retries wait for the next start. */
  let draining = false;
  let timer: NodeJS.Timeout | undefined;
  let rescanTimer: NodeJS.Timeout | undefined;
  let rescanning: Promise<void> | undefined;

  function scheduleRetry(entry: Entry): void {
    let low = 0;
    let high = retries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (retries[middle]!.nextAttemptAt <= entry.nextAttemptAt) low = middle + 1;
      else high = middle;
    }
    retries.splice(low, 0, entry);
  }

  function pump(): void {
    if (stopped) return;
    const now = clock();
    while (inFlight.size < concurrency) {
      const freshIndex = fresh.findIndex(laneFree);
      if (freshIndex >= 0) {
        run(fresh.splice(freshIndex, 1)[0]!, false);
        continue;
      }
      // Retries are in time order: the first due one whose lane is free.
      const dueIndex = draining || retriesInFlight >= retryShare ? -1 : retries.findIndex((entry) => entry.nextAttemptAt > now || laneFree(entry));
      const due = dueIndex >= 0 ? retries[dueIndex] : undefined;
      if (due && due.nextAttemptAt <= now) {
        retries.splice(dueIndex, 1);
        run(due, true);
        continue;
      }
      break;
    }
    armTimer(now);
  }

  function armTimer(now: number): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const due = retries[0];
    if (!due || stopped) return;
    // A due retry waiting for a free slot is started when a send ends; otherwise wake up when it is due.
    if (due.nextAttemptAt <= now) return;
    timer = setTimeout(pump, Math.min(due.nextAttemptAt - now, 2 ** 31 - 1));
    timer.unref();
  }

  function run(entry: Entry, isRetry: boolean): void {
    if (isRetry) retriesInFlight += 1;
    const lane = deps.laneOf?.(entry.stored);
    if (lane !== undefined) busyLanes.add(lane);
    const task = attempt(entry, isRetry)
      .catch((error: unknown) => report.storageFailed('attempt', error))
      .finally(() => {
        inFlight.delete(task);
        if (isRetry) retriesInFlight -= 1;
        if (lane !== undefined) busyLanes.delete(lane);
        pump();
      });
    inFlight.add(task);
  }

  async function attempt(entry: Entry, isRetry: boolean): Promise<void> {
    const { stored } = entry;
    // Only a message that waited can have been dropped by `postbox queue drop` (a new one is tried at once).
    if ((isRetry || entry.attempts > 0) && (await store.isDone(stored.slot))) {
      // `postbox queue drop` removed it while it waited: it never left, and whoever waits for it is told so.
      await settle(stored, 'failed');
      entries.delete(stored.slot);
      await store.forget(stored.slot);
      return;
    }
    const sent = await sendOnce(dispatch, stored);
    if (sent.outcome !== 'error') {
      await settle(stored, sent.outcome);
      entries.delete(stored.slot);
      if (sent.outcome === 'sent') report.delivered(stored);
      await store.complete(stored.slot).catch((storeError: unknown) => report.storageFailed('complete', storeError));
      return;
    }
    const now = clock();
    const { failure, record, givenUp } = judgeFailure(sent.error, entry.attempts, stored.createdAt, now, policy, deps.random);
    const { attempts, nextAttemptAt: next } = record;
    if (givenUp) {
      try {
        await settle(stored, 'failed');
        await store.fail(stored, record, now);
      } catch (storeError) {
        report.storageFailed('fail', storeError);
        Object.assign(entry, { attempts, nextAttemptAt: now + policy.maxDelayMs });
        scheduleRetry(entry);
        return;
      }
      entries.delete(stored.slot);
      failedCount += 1;
      report.givenUp(stored, failure, attempts);
      return;
    }
    Object.assign(entry, { attempts, nextAttemptAt: next });
    report.retrying(stored, failure, record);
    await store.recordAttempt(stored.slot, record).catch((storeError: unknown) => report.storageFailed('record_attempt', storeError));
    // Last: once it is in the retry list any pump (a timer, a rescan) may start it, and this try must be over.
    scheduleRetry(entry);
  }

  async function settle(stored: StoredMessage, outcome: QueueOutcome): Promise<void> {
    await deps.settled?.(stored, outcome).catch((error: unknown) => report.storageFailed('settle', error));
  }

  async function rescan(): Promise<void> {
    try {
      for (const message of await store.loadNew()) {
        if (entries.has(message.slot)) continue;
        const entry: Entry = { stored: message, attempts: message.attempt?.attempts ?? 0, nextAttemptAt: clock() };
        entries.set(message.slot, entry);
        fresh.push(entry);
      }
      if (await store.takeRetryRequest()) {
        const waiting = retries.splice(0);
        for (const entry of waiting) fresh.push(entry);
      }
      failedCount = await store.countFailed();
    } catch (error) {
      report.storageFailed('rescan', error);
    }
    pump();
  }

  return {
    async start() {
      const now = clock();
      for (const message of await store.loadNew()) {
        const entry: Entry = { stored: message, attempts: message.attempt?.attempts ?? 0, nextAttemptAt: now };
        entries.set(message.slot, entry);
        // Tried at once after a restart, but as retries: new mail still goes first.
        scheduleRetry(entry);
      }
      failedCount = await store.countFailed();
      await store.takeRetryRequest();
      // One rescan at a time: two reading the same new segment would both hand its messages over.
      rescanTimer = setInterval(() => {
        rescanning ??= rescan().finally(() => (rescanning = undefined));
      }, deps.rescanIntervalMs ?? 2000);
      rescanTimer.unref();
      pump();
    },
    async enqueue(messages) {
      const stored = await store.add(messages, clock());
      report.queued(stored);
      for (const message of stored) {
        const entry: Entry = { stored: message, attempts: 0, nextAttemptAt: clock() };
        entries.set(message.slot, entry);
        fresh.push(entry);
      }
      pump();
    },
    pendingMessages: async (lane) => [...entries.values()].map((entry) => entry.stored).filter((stored) => lane === undefined || deps.laneOf?.(stored) === lane),
    counts: () => ({ pending: entries.size, failed: failedCount, fsyncs: store.fsyncCount() }),
    async stop(graceMs) {
      draining = true;
      if (timer) clearTimeout(timer);
      if (rescanTimer) clearInterval(rescanTimer);
      let graceTimer: NodeJS.Timeout | undefined;
      let graceOver = false;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(() => {
          graceOver = true;
          resolve();
        }, graceMs);
        graceTimer.unref();
      });
      // Messages queued just before the stop are still tried once; what fails waits on disk for the next start.
      while (!graceOver && (fresh.length > 0 || inFlight.size > 0)) {
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
      }
      stopped = true;
      if (graceTimer) clearTimeout(graceTimer);
      await rescanning;
      await store.close().catch((error: unknown) => report.storageFailed('close', error));
    },
  };
}

/** The last error as `postbox queue list` shows it: the code, and the SMTP reply when there was one. */
