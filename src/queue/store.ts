// The one storage interface of the outgoing-message queue (docs/delivery.md): the files of data_dir/queue
// (src/adapters/files/queue-files.ts, one process) and the PostgreSQL table replicas share
// (src/adapters/postgres/queue-store.ts) both implement it, and the one worker (src/queue/worker.ts) sends
// through it by claiming messages for a while (a lease) and settling each one it claimed.
import type { OutgoingMessage, QueuedMessage } from './outgoing.js';

/** What the tries so far came to; kept beside a pending message for `postbox queue list` and restarts. */
export interface AttemptRecord {
  attempts: number;
  nextAttemptAt: number;
  lastError: string;
}

/** A message waiting or being sent, with its tries so far when it failed at least once. */
export interface PendingMessage extends QueuedMessage {
  attempt?: AttemptRecord;
}

/** A message that was given up, with its last error. */
export interface FailedMessage extends QueuedMessage {
  failedAt: number;
  attempts: number;
  lastError: string;
}

/** Pending (waiting or being sent) and failed (given up) messages. */
export interface QueueCounts {
  pending: number;
  failed: number;
}

/** What the worker asks `claim` for: at most `limit` messages, of which at most `retryLimit` retries. */
export interface ClaimRequest {
  limit: number;
  retryLimit: number;
}

/** A message leased to this store's owner, with what it needs to be sent and settled. */
export interface ClaimedMessage extends QueuedMessage {
  /** Tries made so far. */
  attempts: number;
  /** Whether it counts as a retry (it failed before, or it was found pending at start-up) rather than new. */
  retry: boolean;
  /**
   * Removed by `postbox queue drop` (another process) while it waited: not to be sent. The worker tells
   * `settled` it failed and then calls `complete`, which forgets it.
   */
  dropped?: boolean;
}

/** The owner's view of the queue: `postbox queue list|retry|drop`, /admin's failed mail and dashboard. */
export interface QueueOwnerStore {
  listPending(): Promise<PendingMessage[]>;
  listFailed(): Promise<FailedMessage[]>;
  /** Puts a failed message back, with the same id and a new lifetime; false when there is none with `id`. */
  retryFailed(id: string, now: number): Promise<boolean>;
  /** Makes every waiting message due now (a running `serve` tries them at once, as retries). */
  requestRetry(): Promise<void>;
  /** Removes a message for good: where it was, or undefined when no message has `id`. */
  drop(id: string): Promise<'pending' | 'failed' | undefined>;
  countFailed(): Promise<number>;
}

/**
 * The queue's storage as the worker sees it.
 *
 * The claim contract, the same for every store: `claim` leases due messages nobody holds to this store's owner
 * until each is settled (`complete`, `release`, `fail`) or its lease runs out (`leaseMs`, unless `extend`ed).
 * - New messages come before retries; retries come in the order of their next try's time.
 * - At most `retryLimit` of the claimed messages are retries (the worker keeps retries to half of its slots).
 * - Of a lane (`laneOf` at `add`: a campaign's mails) at most one message is leased at a time, across everyone
 *   claiming from the store, and a lane's new messages go in the order they were queued.
 */
export interface QueueStore extends QueueOwnerStore {
  /** Keeps `messages` durably (written when it resolves), due now; `laneOf` names a message's lane. */
  add(messages: readonly OutgoingMessage[], now: number, laneOf?: (message: QueuedMessage) => string | undefined): Promise<QueuedMessage[]>;
  /** Leases due messages under the contract above. */
  claim(request: ClaimRequest, now: number): Promise<ClaimedMessage[]>;
  /** How long a claim holds a message unless extended; Infinity where leases live in memory (files). */
  readonly leaseMs: number;
  /** Extends this owner's leases of `ids` (messages still being sent) to `now + leaseMs`. */
  extend(ids: readonly string[], now: number): Promise<void>;
  /** Sent, no longer wanted, or dropped elsewhere: the message leaves the queue. */
  complete(id: string): Promise<void>;
  /** A temporary failure: the tries so far and the next try are kept, and the lease is given up. */
  release(id: string, attempt: AttemptRecord): Promise<void>;
  /** Given up: kept as failed, with its last error, for `postbox queue list|retry|drop`. */
  fail(id: string, attempt: AttemptRecord, now: number): Promise<void>;
  /** The messages waiting or being sent now (with a shared store: by every replica); of `lane` only when given. */
  pending(lane?: string): Promise<QueuedMessage[]>;
  /** Pending and failed messages now, exact, read from the store. */
  counts(): Promise<QueueCounts>;
  /**
   * The same counts without waiting, where the store keeps its index in memory (files); absent where reading
   * them costs a round trip (PostgreSQL), and the worker then reads `counts()` every second.
   */
  countsNow?(): QueueCounts;
  /** fsync calls made so far (docs/performance.md prints them per accepted submission); 0 where there are none. */
  fsyncCount(): number;
  /** Lets go of what the store holds open (the files' journal); the store is not used afterwards. */
  close(): Promise<void>;
}
