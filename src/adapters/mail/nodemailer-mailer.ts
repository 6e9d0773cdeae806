// The Mailer port over any nodemailer transport: the SMTP pool, the file outbox and tests share this mapping.
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { MailList, MailMessage, Mailer } from '../../ports.js';
import { isSafeAddressValue, toHeaderText } from '../../kit/header-value.js';

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
  const addresses = { from: message.from, to: message.to, replyTo: message.replyTo, envelopeFrom: message.envelopeFrom };
  for (const [field, value] of Object.entries(addresses)) {
    if (value !== undefined && !isSafeAddressValue(value)) throw new UnsafeHeaderError(field);
  }
  return {
    from: message.from,
    to: message.to,
    ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
    subject: toHeaderText(message.subject),
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    // The tagged envelope sender (docs/bounces.md "Suppression"): MAIL FROM only, the From header stays mail.from.
    ...(message.envelopeFrom === undefined ? {} : { envelope: { from: message.envelopeFrom, to: message.to } }),
    headers: {
      'Auto-Submitted': message.autoSubmitted,
      ...(message.precedence === 'bulk' ? { Precedence: 'bulk' } : {}),
      ...(message.list ? listHeaderFields(message.list) : {}),
    },
    // Our messages never reference files or URLs (an HTML part links to images, it never embeds them); refuse
    // them should a value ever look like one.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** A value for a header that must stay one line: a URL or list id with any control character or angle bracket. */
function isSafeListValue(value: string): boolean {
  return /^[\x21-\x7e]+$/.test(value) && !/[<>]/.test(value);
}

/**
 * The list headers (RFC 2919, RFC 2369, RFC 8058), handed over "prepared" so that nodemailer neither encodes nor
 * folds them: a folded List-Unsubscribe breaks DKIM signatures at some relays.
 */
function listHeaderFields(list: MailList): Record<string, { prepared: true; value: string }> {
  if (!isSafeListValue(list.id)) throw new UnsafeHeaderError('List-Id');
  if (!isSafeListValue(list.unsubscribeUrl)) throw new UnsafeHeaderError('List-Unsubscribe');
  return {
    'List-Id': { prepared: true, value: `<${list.id}>` },
    'List-Unsubscribe': { prepared: true, value: `<${list.unsubscribeUrl}>` },
    'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
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
