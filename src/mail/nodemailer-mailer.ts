// The Mailer port over any nodemailer transport: the SMTP pool, the file outbox and tests share this mapping.
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../forms/ports.js';
import { toHeaderText } from './header-value.js';

/** nodemailer options for one message; header values are flattened again as a last line of defence. */
export function toNodemailerMessage(message: MailMessage): SendMailOptions {
  return {
    from: toHeaderText(message.from),
    to: toHeaderText(message.to),
    ...(message.replyTo === undefined ? {} : { replyTo: toHeaderText(message.replyTo) }),
    subject: toHeaderText(message.subject),
    text: message.text,
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
