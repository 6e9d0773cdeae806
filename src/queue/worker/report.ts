// What the queue worker tells its owner (the forms service counts and logs it).
import type { DeliveryFailure } from '../failure.js';
import type { QueuedMessage } from '../outgoing.js';
import type { AttemptRecord } from '../store.js';

/** What the queue tells its owner (the forms service counts and logs it). */
export interface QueueReport {
  queued(messages: readonly QueuedMessage[]): void;
  delivered(message: QueuedMessage): void;
  retrying(message: QueuedMessage, failure: DeliveryFailure, attempt: AttemptRecord): void;
  givenUp(message: QueuedMessage, failure: DeliveryFailure, attempts: number): void;
  /** The store could not be read or written; `action` says which step. */
  storageFailed(action: string, error: unknown): void;
}
