// The sink of delivery with the queue on (docs/delivery.md "What 200 means"): every message of a submission (owner
// mail, chat and webhook notifications, receipt) is written to the queue in one durable write, and the submission
// counts as delivered once they are there; the queue sends them. Only a failed write makes it `send_failed`.
import type { Logger } from '../kit/log.js';
import type { OutgoingMessage } from '../queue/outgoing.js';
import { safeReason } from '../kit/safe-reason.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import type { SubmissionSink } from './delivery.js';
import type { Metrics } from './metrics.js';

export interface QueueSinkDeps {
  enqueue(messages: readonly OutgoingMessage[]): Promise<void>;
  metrics: Metrics;
  logger: Logger;
}

export function createQueueSink(deps: QueueSinkDeps): SubmissionSink {
  return async (form, messages) => {
    try {
      await deps.enqueue(messages);
      return 'delivered';
    } catch (error) {
      deps.metrics.count(form.path, 'send_failed');
      if (error instanceof UnavailableError) {
        // Nothing was kept, so nothing is sent: the client may try again, on this replica or another.
        deps.logger.warn({ event: 'queue_unavailable', form: form.path, part: error.part }, 'mail queue unreachable: submission refused');
        return 'unavailable';
      }
      deps.logger.error({ event: 'queue_write_failed', form: form.path, reason: safeReason(error) }, 'the messages of a submission could not be queued');
      return 'send_failed';
    }
  };
}
