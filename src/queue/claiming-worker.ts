// The mail queue when replicas share it (contract section 8, docs/delivery.md "Several replicas"): nothing is
// kept in memory but the sends in flight. A message is committed to the shared store before anyone is told it
// was accepted; then the replica that queued it, or any other, claims it (a lease), sends it, and settles it:
// sent (it leaves), a temporary failure (the next try is kept and the lease given up) or given up (failed).
// Every replica asks the store for due messages every `pollIntervalMs`: other replicas' new messages, retries
// whose time came, and messages whose lease ran out because the replica holding them died (a replica extends the
// leases of its own sends while they run).
import { UnavailableError } from '../unavailable-error.js';
import { judgeFailure, sendOnce } from './attempt.js';
import type { QueuedMessage, QueueOutcome } from './outgoing.js';
import type { MailQueue, QueueWorkerDeps } from './queue-worker.js';
import type { ClaimedMessage, SharedQueueStore } from './shared-store.js';

export interface ClaimingWorkerDeps extends Omit<QueueWorkerDeps, 'store' | 'rescanIntervalMs'> {
  store: SharedQueueStore;
  /** How often due messages are claimed when nothing else wakes the worker; 250 ms unless given. */
  pollIntervalMs?: number;
  /** How often the pending and failed counts (/metrics, /admin) are read; 1 s unless given. */
  countIntervalMs?: number;
}

export function createClaimingQueueWorker(deps: ClaimingWorkerDeps): MailQueue {
  const { store, dispatch, policy, clock, report } = deps;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  const inFlight = new Set<Promise<void>>();
  /** The ids being sent now, whose leases this replica extends until they are settled. */
  const leased = new Set<string>();
  /** Settling writes that found the store away: tried again before each claim, so a sent message is not sent again once its lease ends. */
  const unsettled: Array<() => Promise<void>> = [];
  let counts = { pending: 0, failed: 0 };
  let claiming: Promise<void> | undefined;
  let claimAgain = false;
  let draining = false;
  let outage = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let countTimer: NodeJS.Timeout | undefined;
  let counting: Promise<void> | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> | undefined;

  /** Claims what there is room for; one claim at a time, and one more when asked during it. */
  function pump(): void {
    if (draining) return;
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
    const room = concurrency - inFlight.size;
    if (room <= 0 || draining) return;
    let claimed: ClaimedMessage[];
    try {
      claimed = await store.claim(room, clock());
    } catch (error) {
      // An unreachable database is logged by the state itself (postgres_unavailable); anything else once until a
      // claim succeeds. The poll keeps trying, and the worker resumes by itself.
      if (!outage && !(error instanceof UnavailableError)) report.storageFailed('claim', error);
      outage = true;
      return;
    }
    outage = false;
    for (const message of claimed) run(message);
    // A full claim may have left more due messages: claim again once a send ends (run's finally).
  }

  function run(message: ClaimedMessage): void {
    leased.add(message.id);
    const task = attempt(message)
      .catch((error: unknown) => report.storageFailed('attempt', error))
      .finally(() => {
        leased.delete(message.id);
        inFlight.delete(task);
        pump();
      });
    inFlight.add(task);
  }

  async function attempt(message: ClaimedMessage): Promise<void> {
    const queued: QueuedMessage = { id: message.id, createdAt: message.createdAt, message: message.message };
    const sent = await sendOnce(dispatch, queued);
    if (sent.outcome !== 'error') {
      await settle(queued, sent.outcome);
      if (sent.outcome === 'sent') report.delivered(queued);
      await write('complete', () => store.complete(message.id));
      return;
    }
    const now = clock();
    const { failure, record, givenUp } = judgeFailure(sent.error, message.attempts, message.createdAt, now, policy, deps.random);
    if (givenUp) {
      await settle(queued, 'failed');
      await write('fail', () => store.fail(message.id, record, now));
      report.givenUp(queued, failure, record.attempts);
      return;
    }
    report.retrying(queued, failure, record);
    await write('record_attempt', () => store.release(message.id, record));
  }

  async function settle(queued: QueuedMessage, outcome: QueueOutcome): Promise<void> {
    await deps.settled?.(queued, outcome).catch((error: unknown) => report.storageFailed('settle', error));
  }

  /** A settling write; kept for later while the store is unreachable (within the lease, nobody else sends it). */
  async function write(action: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      report.storageFailed(action, error);
      if (error instanceof UnavailableError) unsettled.push(fn);
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

  /** Keeps the leases of the sends under way: only a replica that stopped (killed, cut off) lets them run out. */
  function renewLeases(): void {
    if (leased.size === 0) return;
    renewing ??= store
      .extend([...leased], clock())
      .catch(() => undefined)
      .finally(() => (renewing = undefined));
  }

  function refreshCounts(): void {
    counting ??= store
      .counts()
      .then((now) => {
        counts = now;
      })
      .catch(() => undefined)
      .finally(() => (counting = undefined));
  }

  return {
    async start() {
      refreshCounts();
      pollTimer = setInterval(pump, deps.pollIntervalMs ?? 250);
      pollTimer.unref();
      countTimer = setInterval(refreshCounts, deps.countIntervalMs ?? 1_000);
      countTimer.unref();
      renewTimer = setInterval(renewLeases, Math.max(10, Math.floor(store.leaseMs / 3)));
      renewTimer.unref();
      pump();
    },
    async enqueue(messages) {
      const queued = await store.add(messages, clock(), deps.laneOf);
      report.queued(queued);
      counts = { ...counts, pending: counts.pending + queued.length };
      // This replica may take them at once; any other finds them at its next poll.
      pump();
    },
    pendingMessages: (lane) => store.pending(lane),
    counts: () => ({ ...counts, fsyncs: 0 }),
    async stop(graceMs) {
      // No new claims: what is not claimed stays in the store for the other replicas (or the next start).
      draining = true;
      clearInterval(pollTimer);
      clearInterval(countTimer);
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
        graceTimer.unref();
      });
      // Sends still under way after the grace keep their leases until they run out; another replica then retries them.
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(graceTimer);
      clearInterval(renewTimer);
      await claiming;
      await renewing;
      await counting;
      await flushUnsettled();
    },
  };
}

/** The last error as `postbox queue list` shows it: the code, and the SMTP reply when there was one. */
