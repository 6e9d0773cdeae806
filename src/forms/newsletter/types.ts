// The newsletter double opt-in as the forms service sees it (docs/newsletter.md). Outcomes only: the form
// routes choose the answer, page and status.
import type { NewsletterForm } from '../../config/config.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../metrics.js';
import type { MailKind } from '../../queue/outgoing.js';
import type { AppendLine, Clock, MailMessage, RandomBytes } from '../../ports.js';

/** What a signup came to. `ok` and `duplicate` must be answered identically. */
export type SignupOutcome = 'ok' | 'duplicate' | 'storage_failed' | 'send_failed';

/** What a confirmation came to: on the list, a link unknown, used or expired, or a line that could not be saved. */
export type ConfirmOutcome = 'confirmed' | 'gone' | 'not_saved';

export interface Newsletter {
  /** Records a pending signup for `email` (already validated) and mails the link; counts its own metrics. */
  signup(form: NewsletterForm, email: string): Promise<SignupOutcome>;
  /** Redeems `token` (undefined when the query had none); counts its own metrics. */
  confirm(form: NewsletterForm, token: string | undefined): Promise<ConfirmOutcome>;
  /** Releases timers and files. */
  close(): Promise<void>;
}

export interface NewsletterDeps {
  dataDir: string;
  /** Every form of the configuration; the newsletter ones are served. */
  forms: readonly NewsletterForm[];
  /** `mail.from`. */
  from: string;
  /** The name the confirmation mail gives the site. */
  siteNameFor(form: NewsletterForm): string;
  /**
   * Hands a mail to delivery: `sent` when its server accepted it now, `queued` when it waits durably in the mail
   * queue (which then counts it); rejects when neither happened.
   */
  sendMail(formPath: string, kind: MailKind, mail: MailMessage): Promise<'sent' | 'queued'>;
  /** Appends subscriber and journal lines durably. */
  appendLine: AppendLine;
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  /** How often expired pending records are purged; 10 minutes unless given. */
  purgeIntervalMs?: number;
}
