// The queue's storage when several replicas share it (contract section 8; src/storage/postgres/queue-store.ts):
// a replica claims due messages for a while (a lease) and settles each one it claimed. What `postbox queue` and
// /admin need is the same on both backends (QueueOwnerStore).
import type { OutgoingMessage, QueuedMessage } from './outgoing.js';
import type { AttemptRecord, QueueStore } from './store.js';

/** The owner's view of the queue: `postbox queue list|retry|drop`, /admin's failed mail and dashboard. */
export type QueueOwnerStore = Pick<QueueStore, 'listPending' | 'listFailed' | 'retryFailed' | 'requestRetry' | 'drop' | 'countFailed'>;

/** A message a replica holds a lease on, with the tries made so far. */
export interface ClaimedMessage extends QueuedMessage {
  attempts: number;
}

export interface SharedQueueStore extends QueueOwnerStore {
  /** Keeps `messages` durably (committed when it resolves), due now; `laneOf` names a message's lane. */
  add(messages: readonly OutgoingMessage[], now: number, laneOf?: (message: QueuedMessage) => string | undefined): Promise<QueuedMessage[]>;
  /**
   * Leases up to `limit` due messages to this store's owner, none leased by anyone else: new ones before retries,
   * and of a lane only one, when no message of that lane is leased (across every replica).
   */
  claim(limit: number, now: number): Promise<ClaimedMessage[]>;
  /** How long a claim holds a message unless extended. */
  readonly leaseMs: number;
  /** Extends this owner's leases of `ids` (messages still being sent) to `now + leaseMs`. */
  extend(ids: readonly string[], now: number): Promise<void>;
  /** Sent (or no longer wanted): the message leaves the queue. */
  complete(id: string): Promise<void>;
  /** A temporary failure: the tries so far and the next try are kept, and the lease is given up. */
  release(id: string, attempt: AttemptRecord): Promise<void>;
  /** Given up: kept as failed, with its last error, for `postbox queue list|retry|drop`. */
  fail(id: string, attempt: AttemptRecord, now: number): Promise<void>;
  /** The messages waiting or being sent now, by every replica; of `lane` only when given. */
  pending(lane?: string): Promise<QueuedMessage[]>;
  counts(): Promise<{ pending: number; failed: number }>;
}

/** Whether `store` is shared by replicas (claims and leases) rather than the files of one process. */
export function isSharedQueueStore(store: QueueStore | SharedQueueStore): store is SharedQueueStore {
  return 'claim' in store;
}
