// One claimed message from send to settled: it is sent once, and then it leaves the queue (sent, no longer
// wanted, dropped), waits for its next try (a temporary failure, under the retry policy) or is given up. Whoever
// waits for the message (`settled`, a campaign's journal) is told before the store lets go of it. A settling
// write that finds the store unreachable is kept and tried again before the next claim.
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { Timers } from '../../ports.js';
import { classifyFailure, type DeliveryFailure } from '../failure.js';
import type { Dispatch, QueuedMessage, QueueOutcome } from '../outgoing.js';
import { nextAttemptAt, type RetryPolicy } from '../retry-policy.js';
import type { AttemptRecord, ClaimedMessage, QueueStore } from '../store.js';
import type { QueueReport } from './report.js';

export interface SettlingDeps {
  store: QueueStore;
  dispatch: Dispatch;
  policy: RetryPolicy;
  timer: Timers;
  random(): number;
  report: QueueReport;
  settled?(message: QueuedMessage, outcome: QueueOutcome): Promise<void>;
}

export interface Settling {
  /** Sends `message` once and settles it; rejects only when the store's fallback failed too. */
  attempt(message: ClaimedMessage): Promise<void>;
  /** Tries the settling writes kept while the store was unreachable, in order, until one fails again. */
  flush(): Promise<void>;
}

export function createSettling(deps: SettlingDeps): Settling {
  const { store, report } = deps;
  /** Settling writes that found the store unreachable: within the lease nobody else sends the message. */
  const unsettled: Array<() => Promise<void>> = [];

  async function tell(queued: QueuedMessage, outcome: QueueOutcome): Promise<void> {
    await deps.settled?.(queued, outcome).catch((error: unknown) => report.storageFailed('settle', error));
  }

  /**
   * A settling write. While the store is unreachable (UnavailableError) it is kept for `flush`. Any other error
   * gives the message back through `fallback`, when there is one.
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

  /** It leaves the queue: sent, skipped, or dropped by `postbox queue drop` while it waited (told as failed). */
  async function leave(message: ClaimedMessage, queued: QueuedMessage, outcome: QueueOutcome): Promise<void> {
    await tell(queued, outcome);
    if (outcome === 'sent') report.delivered(queued);
    await write('complete', () => store.complete(message.id));
  }

  async function failed(message: ClaimedMessage, queued: QueuedMessage, error: unknown): Promise<void> {
    const now = deps.timer.now();
    const { failure, record, givenUp } = judgeFailure(error, message, now, deps.policy, deps.random);
    if (!givenUp) {
      report.retrying(queued, failure, record);
      await write('record_attempt', () => store.release(message.id, record));
      return;
    }
    await tell(queued, 'failed');
    // When the failed record cannot be written, the message waits the longest retry delay and is tried again.
    const release = () => store.release(message.id, { ...record, nextAttemptAt: now + deps.policy.maxDelayMs });
    const outcome = await write('fail', () => store.fail(message.id, record, now), release);
    if (outcome !== 'given back') report.givenUp(queued, failure, record.attempts);
  }

  return {
    async attempt(message) {
      const queued: QueuedMessage = { id: message.id, createdAt: message.createdAt, message: message.message };
      if (message.dropped) return leave(message, queued, 'failed');
      const sent = await sendOnce(deps.dispatch, queued);
      if (sent.outcome === 'error') return failed(message, queued, sent.error);
      return leave(message, queued, sent.outcome);
    },
    async flush() {
      while (unsettled.length > 0) {
        try {
          await unsettled[0]!();
        } catch {
          return;
        }
        unsettled.shift();
      }
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

/** Judges the failed try number `attempts + 1` of `message`. */
function judgeFailure(
  error: unknown,
  message: ClaimedMessage,
  now: number,
  policy: RetryPolicy,
  random: () => number,
): { failure: DeliveryFailure; record: AttemptRecord; givenUp: boolean } {
  const failure = classifyFailure(error);
  const attempts = message.attempts + 1;
  // A permanent failure, or no time left within queue_max_hours: the message is given up.
  const next = failure.permanent ? undefined : nextAttemptAt(policy, attempts, message.createdAt, now, random());
  const lastError = failure.reply === undefined ? failure.reason : `${failure.reason}: ${failure.reply}`;
  return { failure, record: { attempts, nextAttemptAt: next ?? now, lastError }, givenUp: next === undefined };
}
