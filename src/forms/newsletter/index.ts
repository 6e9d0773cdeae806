// The newsletter double opt-in (forms-service.md "States and transitions", contract "Newsletter").
// The forms routes call only this interface; the implementation lives beside this file (flow.ts).
import type { Config, FormConfig } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../metrics.js';
import type { Clock, Mailer, RandomBytes } from '../ports.js';

/** What a signup came to. `ok` and `duplicate` must be answered identically. */
export type SignupOutcome = 'ok' | 'duplicate' | 'storage_failed' | 'send_failed';

/** A confirmation page: 200 confirmed, 410 unknown/used/expired, 500 could not save. */
export interface ConfirmPage {
  status: 200 | 410 | 500;
  html: string;
}

export interface Newsletter {
  /** Records a pending signup for `email` (already validated) and mails the link; counts its own metrics. */
  signup(form: FormConfig, email: string): Promise<SignupOutcome>;
  /** Redeems `token` (undefined when the query had none); counts its own metrics. */
  confirm(form: FormConfig, token: string | undefined): Promise<ConfirmPage>;
  /** Releases timers and files. */
  close(): Promise<void>;
}

export interface NewsletterDeps {
  config: Config;
  mailer: Mailer;
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  /** How often expired pending records are purged; 10 minutes unless given. */
  purgeIntervalMs?: number;
}

export { createNewsletter } from './flow.js';
