// A permanent refusal of a recipient while sending (docs/bounces.md "Suppression"): the mail server answered RCPT TO
// with a 5xx, so the mail never left and no bounce will come; the refusal itself is the report. It is hard when the
// reply says the mailbox or its domain does not exist (RFC 3463: 5.1.1 bad mailbox, 5.1.2 bad domain, 5.1.3 bad
// address syntax, 5.1.6 mailbox moved, 5.1.10 a domain that takes no mail; or words to that effect), soft for any
// other 5xx (a full mailbox, a policy refusal, a greylisting server that answers 5xx by mistake).
import type { BounceKind } from './bounce-report.js';
import { scrubReply } from '../queue/failure.js';

/** What a refusal says of the recipient. */
export interface SmtpRefusal {
  kind: Extract<BounceKind, 'hard' | 'soft'>;
  /** The enhanced status code of the reply, when it has one. */
  status?: string;
  /** The reply on one line, addresses replaced. */
  reason: string;
}

const HARD_STATUSES = new Set(['5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10']);

/** Words servers use for a mailbox or domain that does not exist. */
const NO_SUCH_MAILBOX =
  /\b(?:user unknown|unknown (?:user|recipient|mailbox|address)|no such (?:user|mailbox|recipient|address|account|domain)|(?:mailbox|user|recipient|address|account) (?:does not|doesn't) exist|(?:domain|host) (?:not found|does not exist)|null mx)\b/i;

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
  const hard = (status !== undefined && HARD_STATUSES.has(status)) || NO_SUCH_MAILBOX.test(reply);
  return { kind: hard ? 'hard' : 'soft', ...(status === undefined ? {} : { status }), reason: scrubReply(reply) || `smtp_${details.responseCode}` };
}
