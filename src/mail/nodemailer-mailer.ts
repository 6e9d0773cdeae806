// The Mailer port over any nodemailer transport: the SMTP pool, the file outbox and tests share this mapping.
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../ports.js';
import { isSafeAddressValue, toHeaderText } from '../header-value.js';

/** A message refused before sending because an address carried a line break or another control character. */
export class UnsafeHeaderError extends Error {
  readonly code = 'EUNSAFEHEADER';
  constructor(field: string) {
    super(`mail ${field} contains a control character`);
    this.name = 'UnsafeHeaderError';
  }
}

/**
 * nodemailer options for one message, as the last line of defence for headers: an address with a control
 * character is refused, the subject is flattened to one line.
 */
export function toNodemailerMessage(message: MailMessage): SendMailOptions {
  const addresses = { from: message.from, to: message.to, replyTo: message.replyTo };
  for (const [field, value] of Object.entries(addresses)) {
    if (value !== undefined && !isSafeAddressValue(value)) throw new UnsafeHeaderError(field);
  }
  return {
    from: message.from,
    to: message.to,
    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
    subject: toHeaderText(message.subject),
    text: message.text,
    headers: { 'Auto-Submitted': message.autoSubmitted },
    // Our messages never reference files or URLs; refuse them should a value ever look like one.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Wraps `transport` as a Mailer; `send` rejects when the transport did not accept the message. */
export function createNodemailerMailer(transport: Transporter): Mailer {
  return {
    async send(message) {
      await transport.sendMail(toNodemailerMessage(message));
    },
    async close() {
      transport.close();
    },
  };
}
