// The outgoing-message queue at work (docs/delivery.md): mail, Telegram messages and webhooks. A message is in
// the store before anyone is told it was accepted; then the worker claims it (src/queue/store.ts has the claim
// contract), sends it and settles it: sent (it leaves), a temporary failure (the next try is kept, under the
// retry policy of src/queue/retry-policy.ts) or given up (failed). One worker for every store: the files of
// one process and the PostgreSQL table replicas share differ only behind QueueStore.
// The worker claims when a message is queued, when a send ends, and every `pollIntervalMs` (retries whose time
// came, other processes' messages, leases that ran out). New mail goes first and retries hold at most half of
// the sending slots, so a backlog never starves new mail.
import { systemTimers } from '../kit/timers.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import type { Timers } from '../ports.js';
import { classifyFailure, type DeliveryFailure } from './failure.js';
import type { Dispatch, OutgoingMessage, QueuedMessage, QueueOutcome } from './outgoing.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';
import type { AttemptRecord, ClaimedMessage, QueueCounts, QueueStore } from './store.js';

/** What the queue tells its owner (the forms service counts and logs it). */
export interface QueueReport {
  queued(messages: readonly QueuedMessage[]): void;
  delivered(message: QueuedMessage): void;
  retrying(message: QueuedMessage, failure: DeliveryFailure, attempt: AttemptRecord): void;
  givenUp(message: QueuedMessage, failure: DeliveryFailure, attempts: number): void;
  /** The store could not be read or written; `action` says which step. */
  storageFailed(action: string, error: unknown): void;
}

/** The worker's time (src/ports.ts Timers): injected, so that tests run it on fake time. */
export type QueueTimer = Timers;

/** Node's clock and timers: a waiting queue does not keep the process running. */
export const realTimer: QueueTimer = systemTimers;

/** What the worker is built from. */
export interface QueueWorkerDeps {
  store: QueueStore;
  dispatch: Dispatch;
  policy: RetryPolicy;
  timer: QueueTimer;
  /** A number in [0, 1) for the retry jitter. */
  random(): number;
  report: QueueReport;
  /** Messages sent at the same time; 8 unless given (the SMTP pool has 5 connections). */
  concurrency?: number;
  /** How often the worker claims when nothing else wakes it; 250 ms unless given. */
  pollIntervalMs?: number;
  /** How often the counts are read from a store that has no `countsNow` (PostgreSQL); 1 s unless given. */
  countIntervalMs?: number;
  /**
   * Told how a message left the queue, and awaited before the queue lets go of it: what it records is written
   * before the message can be forgotten (a campaign's journal, src/newsletter/campaigns/campaign-ledger.ts).
   */
  settled?(message: QueuedMessage, outcome: QueueOutcome): Promise<void>;
  /**
   * Messages of one lane are sent one at a time: a campaign's, so that a crash can find at most one of its mails
   * in flight (docs/newsletter.md). Undefined: no lane.
   */
  laneOf?(message: QueuedMessage): string | undefined;
}

/** The queue as the forms service and the campaign runner use it. */
export interface DeliveryQueue {
  /** Reads the counts and starts sending (with the files: what is on disk first, at once, as retries). */
  start(): Promise<void>;
  /** Resolves once every message is durably queued; rejects when they could not be written. */
  enqueue(messages: readonly OutgoingMessage[]): Promise<void>;
  /** The messages waiting or being sent now (with a shared store: by every replica); of `lane` only when given. */
  pendingMessages(lane?: string): Promise<QueuedMessage[]>;
  /** Pending and failed messages now, and the fsync calls the queue's writes made since start. */
  counts(): { pending: number; failed: number; fsyncs: number };
  /**
   * Tries new messages once more and waits for sends in flight, for up to `graceMs`; retries wait for the next
   * start, and whatever is pending stays in the store.
   */
  stop(graceMs: number): Promise<void>;
}

/** The one queue worker, over any QueueStore. */
export function createQueueWorker(deps: QueueWorkerDeps): DeliveryQueue {
  const { store, dispatch, policy, timer, report } = deps;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  /** Retries never hold more than half of the slots (docs/delivery.md "Retries"). */
  const retryShare = Math.max(1, Math.floor(concurrency / 2));
  const pollIntervalMs = deps.pollIntervalMs ?? 250;
  const countIntervalMs = deps.countIntervalMs ?? 1_000;
  const inFlight = new Set<Promise<void>>();
  /** The ids being sent now, whose leases the worker extends until they are settled. */
  const leased = new Set<string>();
  /** Settling writes that found the store unreachable: tried again before each claim, so a sent message is not sent again once its lease ends. */
  const unsettled: Array<() => Promise<void>> = [];
  let retriesInFlight = 0;
  let cachedCounts: QueueCounts = { pending: 0, failed: 0 };
  let claiming: Promise<void> | undefined;
  let claimAgain = false;
  let started = false;
  /** Stopping: new messages are still claimed (within the grace), retries wait for the next start. */
  let draining = false;
  /** Stopped: nothing is claimed any more. */
  let stopped = false;
  let outage = false;
  let pollHandle: unknown;
  let countHandle: unknown;
  let renewHandle: unknown;
  let counting: Promise<void> | undefined;
  let renewing: Promise<void> | undefined;

  /** Claims what there is room for; one claim at a time, and one more when asked during it. */
  function pump(): void {
    if (!started || stopped) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = claimAndRun().finally(() => {
      claiming = undefined;
      if (claimAgain) {
        claimAgain = false;
        pump();
      }
    });
  }

  async function claimAndRun(): Promise<void> {
    await flushUnsettled();
    const limit = concurrency - inFlight.size;
    if (limit <= 0 || stopped) return;
    const retryLimit = draining ? 0 : Math.max(0, retryShare - retriesInFlight);
    let claimed: ClaimedMessage[];
    try {
      claimed = await store.claim({ limit, retryLimit }, timer.now());
    } catch (error) {
      // An unreachable database is logged by the state itself (postgres_unavailable); anything else once until a
      // claim succeeds. The poll keeps trying, and the worker resumes by itself.
      if (!outage && !(error instanceof UnavailableError)) report.storageFailed('claim', error);
      outage = true;
      return;
    }
    outage = false;
    for (const message of claimed) run(message);
    // A full claim may have left more due messages: the next claim comes when a send ends (run's finally).
  }

  function run(message: ClaimedMessage): void {
    leased.add(message.id);
    if (message.retry) retriesInFlight += 1;
    const task = attempt(message)
      .catch((error: unknown) => report.storageFailed('attempt', error))
      .finally(() => {
        leased.delete(message.id);
        if (message.retry) retriesInFlight -= 1;
        inFlight.delete(task);
        pump();
      });
    inFlight.add(task);
  }

  async function attempt(message: ClaimedMessage): Promise<void> {
    const queued: QueuedMessage = { id: message.id, createdAt: message.createdAt, message: message.message };
    if (message.dropped) {
      // `postbox queue drop` removed it while it waited: it never left, and whoever waits for it is told so.
      await settle(queued, 'failed');
      await write('complete', () => store.complete(message.id));
      return;
    }
    const sent = await sendOnce(dispatch, queued);
    if (sent.outcome !== 'error') {
      await settle(queued, sent.outcome);
      if (sent.outcome === 'sent') report.delivered(queued);
      await write('complete', () => store.complete(message.id));
      return;
    }
    const now = timer.now();
    const { failure, record, givenUp } = judgeFailure(sent.error, message.attempts, message.createdAt, now, policy, deps.random);
    if (givenUp) {
      await settle(queued, 'failed');
      // When the failed record cannot be written, the message waits the longest retry delay and is tried again.
      const outcome = await write('fail', () => store.fail(message.id, record, now), () => store.release(message.id, { ...record, nextAttemptAt: now + policy.maxDelayMs }));
      if (outcome !== 'given back') report.givenUp(queued, failure, record.attempts);
      return;
    }
    report.retrying(queued, failure, record);
    await write('record_attempt', () => store.release(message.id, record));
  }

  async function settle(queued: QueuedMessage, outcome: QueueOutcome): Promise<void> {
    await deps.settled?.(queued, outcome).catch((error: unknown) => report.storageFailed('settle', error));
  }

  /**
   * A settling write. While the store is unreachable (UnavailableError) it is kept for later and tried again
   * before each claim: within the lease nobody else sends the message. Any other error gives the message back
   * through `fallback`, when there is one.
   */
  async function write(action: string, fn: () => Promise<void>, fallback?: () => Promise<void>): Promise<'done' | 'later' | 'given back' | 'lost'> {
    try {
      await fn();
      return 'done';
    } catch (error) {
      report.storageFailed(action, error);
      if (error instanceof UnavailableError) {
        unsettled.push(fn);
        return 'later';
      }
      if (!fallback) return 'lost';
      await fallback().catch((fallbackError: unknown) => report.storageFailed(action, fallbackError));
      return 'given back';
    }
  }

  async function flushUnsettled(): Promise<void> {
    while (unsettled.length > 0) {
      try {
        await unsettled[0]!();
      } catch {
        return;
      }
      unsettled.shift();
    }
  }

  /** Re-arms itself: the timer only has one-shot timeouts. */
  function every(ms: number, fn: () => void, keep: (handle: unknown) => void): void {
    keep(
      timer.setTimeout(() => {
        fn();
        if (!stopped) every(ms, fn, keep);
      }, ms),
    );
  }

  /** Keeps the leases of the sends under way: only a replica that stopped (killed, cut off) lets them run out. */
  function renewLeases(): void {
    if (leased.size === 0) return;
    renewing ??= store
      .extend([...leased], timer.now())
      .catch(() => undefined)
      .finally(() => (renewing = undefined));
  }

  function refreshCounts(): void {
    counting ??= store
      .counts()
      .then((now) => {
        cachedCounts = now;
      })
      .catch(() => undefined)
      .finally(() => (counting = undefined));
  }

  return {
    async start() {
      cachedCounts = await store.counts().catch((error: unknown) => {
        if (!(error instanceof UnavailableError)) report.storageFailed('counts', error);
        return cachedCounts;
      });
      started = true;
      every(pollIntervalMs, pump, (handle) => (pollHandle = handle));
      if (!store.countsNow) every(countIntervalMs, refreshCounts, (handle) => (countHandle = handle));
      // Leases in memory (files) never run out; the others are renewed well before they do.
      if (Number.isFinite(store.leaseMs)) every(Math.max(10, Math.floor(store.leaseMs / 3)), renewLeases, (handle) => (renewHandle = handle));
      pump();
    },
    async enqueue(messages) {
      const queued = await store.add(messages, timer.now(), deps.laneOf);
      report.queued(queued);
      cachedCounts = { ...cachedCounts, pending: cachedCounts.pending + queued.length };
      // This worker may take them at once; another replica finds them at its next poll.
      pump();
    },
    pendingMessages: (lane) => store.pending(lane),
    counts: () => ({ ...(store.countsNow?.() ?? cachedCounts), fsyncs: store.fsyncCount() }),
    async stop(graceMs) {
      draining = true;
      timer.clearTimeout(pollHandle);
      timer.clearTimeout(countHandle);
      let graceOver = false;
      let graceResolve!: () => void;
      const grace = new Promise<void>((resolve) => (graceResolve = resolve));
      const graceHandle = timer.setTimeout(() => {
        graceOver = true;
        graceResolve();
      }, graceMs);
      // Messages queued just before the stop are still tried once; what fails waits in the store.
      pump();
      while (!graceOver) {
        const busy = claiming ? [...inFlight, claiming] : [...inFlight];
        if (busy.length === 0) break;
        await Promise.race([...busy, grace]);
      }
      // Sends still under way after the grace keep their leases until they run out; then they are tried again.
      stopped = true;
      timer.clearTimeout(graceHandle);
      timer.clearTimeout(renewHandle);
      await claiming;
      await renewing;
      await counting;
      await flushUnsettled();
      await store.close().catch((error: unknown) => report.storageFailed('close', error));
    },
  };
}

/** Sends `queued` once through `dispatch`; never rejects: a failure is returned as `error`. */
async function sendOnce(dispatch: Dispatch, queued: QueuedMessage): Promise<{ outcome: 'sent' | 'skipped' } | { outcome: 'error'; error: unknown }> {
  try {
    return { outcome: (await dispatch(queued)) === 'skipped' ? 'skipped' : 'sent' };
  } catch (caught) {
    return { outcome: 'error', error: caught ?? new Error('send failed') };
  }
}

/** Judges the failed try number `attemptsBefore + 1` of a message first queued at `createdAt`. */
function judgeFailure(
  error: unknown,
  attemptsBefore: number,
  createdAt: number,
  now: number,
  policy: RetryPolicy,
  random: () => number,
): { failure: DeliveryFailure; record: AttemptRecord; givenUp: boolean } {
  const failure = classifyFailure(error);
  const attempts = attemptsBefore + 1;
  // A permanent failure, or no time left within queue_max_hours: the message is given up.
  const next = failure.permanent ? undefined : nextAttemptAt(policy, attempts, createdAt, now, random());
  const lastError = failure.reply === undefined ? failure.reason : `${failure.reason}: ${failure.reply}`;
  return { failure, record: { attempts, nextAttemptAt: next ?? now, lastError }, givenUp: next === undefined };
}
