// The queue of the blog's activities when no mail queue runs (docs/activitypub.md "Delivery"): a blog without
// [mail], or with `queue = false`. The same worker as the mail's (src/queue/worker.ts) over the backend's queue
// store (data_dir/queue or the PostgreSQL table), so the retries, the dead letters, `postbox queue` and /admin's
// failed mail are the same; its dispatch sends activities only.
import type { Backend } from '../adapters/backend.js';
import type { Config } from '../config/config.js';
import { createMetrics } from '../forms/metrics.js';
import { createQueueReport } from '../forms/queue-report.js';
import type { Logger } from '../kit/log.js';
import type { Timers } from '../ports.js';
import { NoChannelError, type DispatchChannels } from '../queue/dispatch.js';
import { retryPolicyOf } from '../queue/retry-policy.js';
import { createQueueWorker, type DeliveryQueue } from '../queue/worker.js';
import type { QueueTuning } from './mail-core.js';

/** `[mail] queue_max_hours` when there is a [mail], else its default. */
const DEFAULT_MAX_HOURS = 72;

/** In-flight deliveries get this long when the service stops; what is not sent stays queued. */
const STOP_GRACE_MS = 5_000;

export interface ActivityPubQueueParts {
  logger: Logger;
  timers: Timers;
  /** Replaces parts of the queue's tuning (tests). */
  tuning?: Partial<QueueTuning>;
}

/**
 * The started queue of the activities of `config`, and how it stops. A message of another channel found in the
 * store (mail queued while `[mail] queue` was on) has no channel here: it is given up, and waits in the failed
 * folder for `postbox queue retry`.
 */
export async function startActivityPubQueue(
  config: Config,
  backend: Pick<Backend, 'queue'>,
  deliverActivity: NonNullable<DispatchChannels['deliverActivity']>,
  parts: ActivityPubQueueParts,
): Promise<DeliveryQueue & { close(): Promise<void> }> {
  const tuning = parts.tuning ?? {};
  const queue = createQueueWorker({
    store: backend.queue,
    dispatch: async ({ message }) => {
      if (message.channel !== 'activitypub') throw new NoChannelError(message.channel);
      return deliverActivity(message.inbox, message.activity);
    },
    policy: tuning.policy ?? retryPolicyOf(config.mail?.queue_max_hours ?? DEFAULT_MAX_HOURS),
    timer: parts.timers,
    random: tuning.random ?? Math.random,
    pollIntervalMs: tuning.pollIntervalMs,
    report: createQueueReport(createMetrics([]), parts.logger, undefined),
  });
  await queue.start();
  return { ...queue, close: () => queue.stop(STOP_GRACE_MS) };
}
