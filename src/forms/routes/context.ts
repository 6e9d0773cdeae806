// What the form routes need from the service, gathered once at start.
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import type { DeliveryOutcome } from '../delivery.js';
import type { Metrics } from '../metrics.js';
import type { Newsletter } from '../newsletter/index.js';
import type { SubmissionNotice } from '../notifications.js';
import type { Clock } from '../ports.js';
import type { FormRateLimits } from '../rate-limits.js';

export interface FormsContext {
  config: Config;
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  rateLimits: FormRateLimits;
  newsletter: Newsletter;
  /** Appends a line to a form's archive file and fsyncs it; rejects when that failed. */
  archive(file: string, line: object): Promise<void>;
  deliver(notice: SubmissionNotice): Promise<DeliveryOutcome>;
}
