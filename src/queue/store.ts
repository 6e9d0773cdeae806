// The queue's storage as the worker and `postbox queue` see it; src/storage/queue-files.ts keeps it in
// data_dir/queue (docs/delivery.md "On disk").
import type { OutgoingMessage, QueuedMessage } from './outgoing.js';

/** A queued message and where it is kept (`slot`: its segment and place in it). */
export interface StoredMessage extends QueuedMessage {
  slot: string;
}

/** What the tries so far came to; kept beside a pending message for `postbox queue list` and restarts. */
export interface AttemptRecord {
  attempts: number;
  nextAttemptAt: number;
  lastError: string;
}

export interface PendingMessage extends StoredMessage {
  attempt?: AttemptRecord;
}

/** A message that was given up, in queue/failed/. */
export interface FailedMessage extends QueuedMessage {
  failedAt: number;
  attempts: number;
  lastError: string;
}

export interface QueueStore {
  /** Writes `messages` durably (temp file, fsync, rename, fsync of the folder); concurrent calls share one write. */
  add(messages: readonly OutgoingMessage[], now: number): Promise<StoredMessage[]>;
  /** Pending messages of segments this store has not read yet: all of them at the first call, then new ones. */
  loadNew(): Promise<PendingMessage[]>;
  /** Whether the message left the queue (also by `postbox queue drop` from another process). */
  isDone(slot: string): Promise<boolean>;
  /** The server accepted the message: it leaves the queue. */
  complete(slot: string): Promise<void>;
  /** Forgets a message another process removed. */
  forget(slot: string): Promise<void>;
  recordAttempt(slot: string, attempt: AttemptRecord): Promise<void>;
  /** Moves the message to queue/failed/ with its last error. */
  fail(message: StoredMessage, attempt: AttemptRecord, now: number): Promise<void>;
  /** Whether `postbox queue retry` asked for every pending message to be tried now (the request is taken). */
  takeRetryRequest(): Promise<boolean>;
  countFailed(): Promise<number>;
  listPending(): Promise<PendingMessage[]>;
  listFailed(): Promise<FailedMessage[]>;
  /** Puts a failed message back, with the same id and a new lifetime; false when there is none with `id`. */
  retryFailed(id: string, now: number): Promise<boolean>;
  /** Asks a running `serve` to try every pending message now. */
  requestRetry(): Promise<void>;
  /** Removes a message for good: where it was, or undefined when no message has `id`. */
  drop(id: string): Promise<'pending' | 'failed' | undefined>;
  /** fsync calls made so far (docs/performance.md prints them per accepted submission). */
  fsyncCount(): number;
  /** Writes what is buffered and releases the open journal file. */
  close(): Promise<void>;
}
