// The mail addresses of the configuration (`mail.from`, `mail.to`, a form's `to`), read by nodemailer's own
// address parser when the file is loaded: a value the mailer would refuse or misread fails `postbox check`
// instead of every mail (docs/configuration.md [mail]).
import addressParser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { isSafeAddressValue } from '../header-value.js';

// An addr-spec as far as a mail server's first look goes: something, "@", a domain, no white space.
const ADDR_SPEC = /^[^\s@]+@[^\s@]+$/;

/** The addresses `value` names, or why it names none that mail can go to. */
function parseMailboxes(value: string): { addresses: string[] } | { problem: string } {
  // nodemailer refuses such a header value (src/mail/nodemailer-mailer.ts); a line break could add a header.
  if (!isSafeAddressValue(value)) return { problem: 'must not contain line breaks or other control characters' };
  const addresses = addressParser(value, { flatten: true }).map((entry) => entry.address);
  if (addresses.length === 0 || addresses.some((address) => !ADDR_SPEC.test(address))) {
    return { problem: 'must be a mail address such as "owner@example.com" or "Name <owner@example.com>"' };
  }
  return { addresses };
}

/** One mailbox, for the From of every mail. */
export const mailbox = z.string().superRefine((value, context) => {
  const parsed = parseMailboxes(value);
  if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
  else if (parsed.addresses.length > 1) context.addIssue({ code: 'custom', message: 'must be one address (it is the sender of every mail)' });
});

/** One or more mailboxes separated by commas, for an owner. */
export const mailboxList = z.string().superRefine((value, context) => {
  const parsed = parseMailboxes(value);
  if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
});
