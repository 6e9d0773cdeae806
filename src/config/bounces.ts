// [mail.bounces] (docs/configuration.md "[mail.bounces]", docs/bounces.md): the address bounces come back to (every
// mail's envelope sender is it with a signed tag), where they are read (an IMAP mailbox, providers' webhooks), and
// the policy that turns them into the suppression list.
import { z } from 'zod';
import { isEmailAddress } from '../kit/email-address.js';
import { isHost } from './hosts.js';

/** The characters of a VERP tag: `bounces+<tag>@...` (src/bounces/verp.ts makes and reads them). */
export const VERP_TAG_LENGTH = 32;
/** RFC 5321 section 4.5.3.1.1: a local part has at most 64 octets; the tag and its "+" take 33 of them. */
export const MAX_BOUNCE_LOCAL_PART = 64 - VERP_TAG_LENGTH - 1;

/** The longest `soft_days`: a soft bounce older than a year says nothing about the address now. */
const MAX_SOFT_DAYS = 365;
/** The highest `soft_limit`. */
const MAX_SOFT_LIMIT = 100;
/** The longest IMAP poll interval: a day. */
const MAX_POLL_SECONDS = 86_400;

/**
 * The bare address bounces come back to: `local@domain`, no display name, a dot-atom local part short enough to
 * carry the tag (the envelope sender of every mail is `<local>+<tag>@<domain>`).
 */
const bounceAddress = z.string().superRefine((value, context) => {
  const at = value.lastIndexOf('@');
  const local = value.slice(0, Math.max(0, at));
  if (at <= 0 || !isEmailAddress(value) || local.startsWith('"')) {
    context.addIssue({ code: 'custom', message: 'must be a bare mail address such as "bounces@example.com" (no display name, no quotes)' });
  } else if (local.length > MAX_BOUNCE_LOCAL_PART) {
    context.addIssue({
      code: 'custom',
      message: `must have a local part (before "@") of at most ${MAX_BOUNCE_LOCAL_PART} characters: the signed tag takes ${VERP_TAG_LENGTH + 1} of the 64 a local part may have`,
    });
  } else if (!/^[\x21-\x7e]+$/.test(value)) {
    context.addIssue({ code: 'custom', message: 'must be plain ASCII (write a domain in another script in punycode)' });
  }
});

const secretText = z.string().min(1, 'must not be empty');

const imap = z.strictObject({
  host: z.string().refine(isHost, 'must be a host name or an IP address'),
  port: z.number().int().min(1).max(65535).default(993),
  secure: z.boolean().default(true),
  user: secretText,
  password: secretText,
  folder: z.string().min(1).default('INBOX'),
  poll_seconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(MAX_POLL_SECONDS, `must be at most ${MAX_POLL_SECONDS} (a day)`)
    .default(60),
});

const webhooks = z.strictObject({
  postmark: z.strictObject({ username: secretText, password: secretText }).optional(),
  ses: z
    .strictObject({
      topic_arns: z
        .array(z.string().regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/, 'must be an SNS topic ARN such as "arn:aws:sns:eu-west-1:123456789012:bounces"'))
        .min(1, 'must list at least one SNS topic ARN'),
    })
    .optional(),
  sendgrid: z.strictObject({ public_key: secretText }).optional(),
  mailgun: z.strictObject({ signing_key: secretText }).optional(),
});

export const bouncesSchema = z
  .strictObject({
    address: bounceAddress.optional(),
    soft_limit: z.number().int('must be a whole number of soft bounces').min(1, 'must be at least 1').max(MAX_SOFT_LIMIT, `must be at most ${MAX_SOFT_LIMIT}`).default(3),
    soft_days: z.number().positive('must be more than 0 (days a soft bounce counts)').max(MAX_SOFT_DAYS, `must be at most ${MAX_SOFT_DAYS} (a year)`).default(30),
    imap: imap.optional(),
    webhooks: webhooks.optional(),
  })
  .superRefine((value, context) => {
    // A mailbox holds whatever anyone sends to it: only a bounce carrying a signed tag names a message of ours.
    if (value.imap !== undefined && value.address === undefined) {
      context.addIssue({ code: 'custom', path: ['address'], message: 'is required with [mail.bounces.imap]: a bounce in the mailbox is known by the tagged address it came back to' });
    }
  });

/** [mail.bounces] as the code uses it; the policy's defaults when the table is left out. */
export type BouncesConfig = z.output<typeof bouncesSchema>;
