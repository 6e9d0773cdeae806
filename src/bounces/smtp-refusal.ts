// A permanent refusal of a recipient while sending (docs/bounces.md "Suppression"): the mail server answered RCPT TO
// with a 5xx, so the mail never left and no bounce will come; the refusal itself is the report. Whether it is hard or
// soft is decided by the same rules as a bounce's (src/bounces/failure-rules.ts, docs/bounces.md "What counts as
// hard"), as a refusal of RCPT TO: hard when the reply says the mailbox or its domain does not exist, soft for any
// other 5xx (a full mailbox, a policy refusal, a greylisting server that answers 5xx by mistake).
import type { BounceKind } from './bounce-report.js';
import { scrubReply } from '../queue/failure.js';
import { failureKind } from './failure-rules.js';

/** What a refusal says of the recipient. */
export interface SmtpRefusal {
  kind: Extract<BounceKind, 'hard' | 'soft'>;
  /** The enhanced status code of the reply, when it has one. */
  status?: string;
  /** The reply on one line, addresses replaced. */
  reason: string;
}

/**
 * The refusal `error` (a nodemailer send error) says of the mail's recipient, or undefined when it is no permanent
 * refusal at RCPT TO (a network error, a 4xx, a refusal of the message or of the sender).
 */
export function smtpRefusalOf(error: unknown): SmtpRefusal | undefined {
  const details = (error ?? {}) as { command?: unknown; responseCode?: unknown; response?: unknown; rejectedErrors?: unknown };
  if (details.command !== 'RCPT TO' || typeof details.responseCode !== 'number') return undefined;
  if (details.responseCode < 500 || details.responseCode > 599) return undefined;
  const reply = typeof details.response === 'string' ? details.response : '';
  const status = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(reply)?.[1];
  const scrubbed = scrubReply(reply);
  const kind = failureKind({ statuses: status === undefined ? [] : [status], replies: [details.responseCode], text: scrubbed, delayed: false, command: 'rcpt' });
  return { kind, ...(status === undefined ? {} : { status }), reason: scrubbed || `smtp_${details.responseCode}` };
}
