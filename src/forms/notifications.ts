// The texts a submission produces (docs/forms-api.md "Delivery"): the owner mail, the chat notification, the
// webhook event and the receipt. Pure: the delivery code sends what these return. Free text bound for a header
// (the name in the subject) passes through toHeaderText, so no CR, LF or other control character from the input
// reaches a header, nor an RFC 2047 encoded word that a mail program would decode into one: such words are decoded
// first, then cleaned (docs/forms-api.md "Delivery"); addresses are validated addr-specs, which hold none (and the
// mail adapter refuses any that do).
import type { FormConfig } from '../config/config.js';
import type { MailMessage, WebhookEvent } from '../ports.js';
import { toHeaderText } from '../kit/header-value.js';
import type { Submission } from './rules/submission.js';

/** What the owner mail and the chat notification are built from. */
export interface SubmissionNotice {
  form: FormConfig;
  submission: Submission;
  /** RFC 3339 UTC time the submission arrived. */
  receivedAt: string;
  /** Signed links to the submission's scanned files (docs/attachments.md "Links"): owner mail, chat and webhook. */
  links?: readonly AttachmentLink[];
}

/** A file of a submission as the owner mail lists it. */
export interface AttachmentLink {
  filename: string;
  type: string;
  size: number;
  url: string;
}

/** Addresses from [mail] and the form. */
export interface MailAddresses {
  from: string;
  /** The owner: the form's `to`, else `mail.to`. */
  owner: string;
}

/** The mail to the owner: Reply-To the submitter, a subject naming the form type and the submitter. */
export function composeOwnerMail(notice: SubmissionNotice, addresses: MailAddresses): MailMessage {
  const { form, submission } = notice;
  const who = submission.name === undefined ? 'an anonymous sender' : toHeaderText(submission.name);
  return {
    from: addresses.from,
    to: addresses.owner,
    replyTo: submission.email,
    subject: `New ${form.type} form submission from ${who}`,
    text: `${describeSubmission(notice)}\n\nReply to this mail to answer the sender.\n`,
    autoSubmitted: 'auto-generated',
  };
}

/** The chat notification: the same fields and links as the owner mail. */
export function composeChatText(notice: SubmissionNotice): string {
  return describeSubmission(notice);
}

/** The webhook event of a submission; `id` is the delivery's, the same on every attempt. */
export function composeWebhookEvent(notice: SubmissionNotice, id: string): WebhookEvent {
  return { id, ...fieldsOf(notice) };
}

/**
 * The receipt to the submitter: fixed text naming the site and nothing the submitter typed, so the form
 * cannot be used to send chosen words to any address. It is sent from `mail.from` and is never given the owner's
 * address (no Reply-To): whoever types an address into the form would otherwise learn the owner's inbox.
 */
export function composeReceipt(submission: Submission, from: string, siteName: string): MailMessage {
  const site = toHeaderText(siteName);
  return {
    from,
    to: submission.email,
    subject: `We received your message – ${site}`,
    text: [
      'Hello,',
      '',
      `thank you for getting in touch with ${site}. Your message has arrived and we will read it soon.`,
      '',
      'This is an automatic receipt: there is no need to answer it. If you did not send a message',
      'to us, someone else entered your address and you can ignore this mail.',
      '',
    ].join('\n'),
    autoSubmitted: 'auto-replied',
  };
}

/** The name a receipt gives the site: the [site] title, else the host of the form's first allowed origin. */
export function resolveSiteName(siteTitle: string | undefined, form: FormConfig, publicUrl: string | undefined): string {
  if (siteTitle) return siteTitle;
  for (const candidate of [form.allowed_origins[0], publicUrl]) {
    if (candidate) return new URL(candidate).host;
  }
  return 'our website';
}

/**
 * The fields of a submission as plain text, one per line, the message last: the body of the owner mail and the
 * text of the chat and of the Slack and Discord webhooks.
 */
export function describeSubmissionFields(fields: Omit<WebhookEvent, 'id'>): string {
  const lines = [`New ${fields.type} form submission on ${fields.form}`, ''];
  if (fields.name !== undefined) lines.push(`Name: ${fields.name}`);
  lines.push(`Email: ${fields.email}`);
  if (fields.service !== undefined) lines.push(`Service: ${fields.service}`);
  lines.push(`Received: ${fields.received_at}`);
  if (fields.message !== undefined) lines.push('', 'Message:', fields.message);
  return `${lines.join('\n')}${describeLinks(fields.attachments ?? [])}`;
}

/** The files as links, never as parts of the mail: a scanned file is fetched, not opened from the inbox. */
function describeLinks(links: readonly AttachmentLink[]): string {
  if (links.length === 0) return '';
  const lines = links.map((link) => `- ${link.filename.replace(/[\u0000-\u001f\u007f]/g, ' ')} (${link.type}, ${link.size} bytes): ${link.url}`);
  return `\n\nAttachments (links valid for 7 days):\n${lines.join('\n')}`;
}

function describeSubmission(notice: SubmissionNotice): string {
  return describeSubmissionFields(fieldsOf(notice));
}

/** The fields in the order of the webhook's JSON shape, absent ones left out. */
function fieldsOf({ form, submission, receivedAt, links }: SubmissionNotice): Omit<WebhookEvent, 'id'> {
  return {
    form: form.path,
    type: form.type,
    received_at: receivedAt,
    ...(submission.name === undefined ? {} : { name: submission.name }),
    email: submission.email,
    ...(submission.service === undefined ? {} : { service: submission.service }),
    ...(submission.message === undefined ? {} : { message: submission.message }),
    ...(links === undefined || links.length === 0 ? {} : { attachments: links.map(({ filename, type, size, url }) => ({ filename, type, size, url })) }),
  };
}
