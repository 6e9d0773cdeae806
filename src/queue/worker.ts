// The outgoing-message queue at work (docs/delivery.md): mail, Telegram messages and webhooks. A message is in
// the store before anyone is told it was accepted; then the worker claims it (src/queue/store.ts has the claim
// contract), sends it and settles it: sent (it leaves), a temporary failure (the next try is kept, under the
// retry policy of src/queue/retry-policy.ts) or given up (failed). One worker for every store: the files of
// one process and the PostgreSQL table replicas share differ only behind QueueStore.
// The worker claims when a message is queued, when a send ends, and every `pollIntervalMs` (retries whose time
// came, other processes' messages, leases that ran out). New mail goes first and retries hold at most half of
// the sending slots, so a backlog never starves new mail.
// Its parts, in worker/: the sending slots (sending-slots.ts), the claim loop (claim-loop.ts), a message from
// send to settled (settling.ts), the counts (counts-cache.ts), lease renewal (lease-renewal.ts) and the timers
// that repeat (repeater.ts).
import { systemTimers } from '../kit/timers.js';
import type { Timers } from '../ports.js';
import type { Dispatch, OutgoingMessage, QueuedMessage, QueueOutcome } from './outgoing.js';
import type { RetryPolicy } from './retry-policy.js';
import type { QueueStore } from './store.js';
import { createClaimLoop, type ClaimLoop } from './worker/claim-loop.js';
import { createCountsCache } from './worker/counts-cache.js';
import { createLeaseRenewal } from './worker/lease-renewal.js';
import { createRepeater } from './worker/repeater.js';
import type { QueueReport } from './worker/report.js';
import { createSendingSlots, type SendingSlots } from './worker/sending-slots.js';
import { createSettling } from './worker/settling.js';

export type { QueueReport } from './worker/report.js';

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
  const { store, timer, report } = deps;
  const slots = createSendingSlots(deps.concurrency ?? 8);
  const settling = createSettling(deps);
  const loop = createClaimLoop({ store, timer, report, slots, settling });
  const counts = createCountsCache(store, report);
  const renewal = createLeaseRenewal(store, timer, slots);
  const poll = createRepeater(timer, deps.pollIntervalMs ?? 250, loop.pump);
  const recount = createRepeater(timer, deps.countIntervalMs ?? 1_000, counts.refresh);
  // Leases in memory (files) never run out; the others are renewed well before they do.
  const renew = Number.isFinite(store.leaseMs) ? createRepeater(timer, Math.max(10, Math.floor(store.leaseMs / 3)), renewal.renew) : undefined;

  return {
    async start() {
      await counts.read();
      loop.to('running');
      poll.start();
      if (!store.countsNow) recount.start();
      renew?.start();
      loop.pump();
    },
    async enqueue(messages) {
      const queued = await store.add(messages, timer.now(), deps.laneOf);
      report.queued(queued);
      counts.queued(queued.length);
      // This worker may take them at once; another replica finds them at its next poll.
      loop.pump();
    },
    pendingMessages: (lane) => store.pending(lane),
    counts: () => ({ ...counts.now(), fsyncs: store.fsyncCount() }),
    async stop(graceMs) {
      // A worker never started claims nothing.
      if (loop.phase() === 'running') loop.to('draining');
      poll.cancel();
      recount.cancel();
      // Messages queued just before the stop are still tried once; what fails waits in the store.
      loop.pump();
      await drain(timer, graceMs, loop, slots);
      // Sends still under way after the grace keep their leases until they run out; then they are tried again.
      loop.to('stopped');
      renew?.cancel();
      await loop.claiming();
      await renewal.settled();
      await counts.settled();
      await settling.flush();
      await store.close().catch((error: unknown) => report.storageFailed('close', error));
    },
  };
}

/** Waits for the claim and the sends under way, for up to `graceMs`. */
async function drain(timer: Timers, graceMs: number, loop: ClaimLoop, slots: SendingSlots): Promise<void> {
  let graceOver = false;
  let graceResolve!: () => void;
  const grace = new Promise<void>((resolve) => (graceResolve = resolve));
  const graceHandle = timer.setTimeout(() => {
    graceOver = true;
    graceResolve();
  }, graceMs);
  while (!graceOver) {
    const claiming = loop.claiming();
    const busy = claiming ? [...slots.inFlight(), claiming] : slots.inFlight();
    if (busy.length === 0) break;
    await Promise.race([...busy, grace]);
  }
  timer.clearTimeout(graceHandle);
}
