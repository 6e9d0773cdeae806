// One try of a queued message, shared by both workers (queue-worker.ts over files, claiming-worker.ts over a shared
// store): send it once, and when that failed, what the failure comes to under the retry policy.
import { classifyFailure, type DeliveryFailure } from './failure.js';
import type { Dispatch, QueuedMessage } from './outgoing.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';
import type { AttemptRecord } from './store.js';

/** Sends `queued` once through `dispatch`; never rejects: a failure is returned as `error`. */
export async function sendOnce(dispatch: Dispatch, queued: QueuedMessage): Promise<{ outcome: 'sent' | 'skipped' } | { outcome: 'error'; error: unknown }> {
  try {
    return { outcome: (await dispatch(queued)) === 'skipped' ? 'skipped' : 'sent' };
  } catch (caught) {
    return { outcome: 'error', error: caught ?? new Error('send failed') };
  }
}

/** What a failed try comes to. */
export interface FailedAttempt {
  failure: DeliveryFailure;
  /** The tries so far, this one included, the next one's time (now when given up), and the reason in words. */
  record: AttemptRecord;
  /** A permanent failure, or no time left within queue_max_hours: the message moves to the failed ones. */
  givenUp: boolean;
}

/** Judges the failed try number `attemptsBefore + 1` of a message first queued at `createdAt`. */
export function judgeFailure(error: unknown, attemptsBefore: number, createdAt: number, now: number, policy: RetryPolicy, random: () => number): FailedAttempt {
  const failure = classifyFailure(error);
  const attempts = attemptsBefore + 1;
  const next = failure.permanent ? undefined : nextAttemptAt(policy, attempts, createdAt, now, random());
  const lastError = failure.reply === undefined ? failure.reason : `${failure.reason}: ${failure.reply}`;
  return { failure, record: { attempts, nextAttemptAt: next ?? now, lastError }, givenUp: next === undefined };
}
